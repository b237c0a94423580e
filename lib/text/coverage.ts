/**
 * How much of a question the retrieved passages cover: the rules decider's evidence test.
 */
import { distinctTerms, terms } from './analyze';
import { Bm25Index, idf } from './bm25';

export interface Coverage {
  /** 0..1: weighted share of the question's content terms found in the best passages. */
  coverage: number;
  /** Indices of the passages that were used (best BM25 first). */
  top: number[];
  /** Question terms no passage contains (stems). */
  missing: string[];
}

/**
 * How well the best passages (top `topK` by BM25) cover the question: the weighted share of the
 * question's terms they contain. A term's weight grows with its rarity among the passages (a
 * term none of them contain, like "warranty", weighs most; one every passage shares weighs half),
 * so an answer is not claimed on the strength of the words every passage has.
 */
export function passageCoverage(question: string, passages: string[], topK = 3): Coverage {
  const qTerms = distinctTerms(question);
  if (qTerms.length === 0 || passages.length === 0) return { coverage: 0, top: [], missing: qTerms };
  const docs = passages.map((p) => terms(p));
  const index = new Bm25Index(docs);
  const top = index.search(qTerms, topK).map((h) => h.doc);
  const union = new Set(top.flatMap((i) => docs[i]));
  const maxIdf = idf(docs.length, 0);
  const weight = (t: string) => 0.5 + (0.5 * index.idf(t)) / maxIdf;
  const total = qTerms.reduce((s, t) => s + weight(t), 0);
  const covered = qTerms.reduce((s, t) => s + (union.has(t) ? weight(t) : 0), 0);
  return { coverage: covered / total, top, missing: qTerms.filter((t) => !index.has(t)) };
}
