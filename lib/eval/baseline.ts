/**
 * The eval's `baseline`: what a user could do without this product — a plain Okapi BM25 over
 * whole pages (text layer plus OCR lines), no chunking, no embeddings, no stemming, no stop words.
 * The scorer is the code base's one BM25 (lib/text/bm25.ts: k1 = 1.2, b = 0.75, query terms
 * counted once); only the tokenizer is the baseline's own, deliberately simpler than lib/text's.
 */
import { Bm25Index } from '../text/bm25';

/** The simple tokenizer: lower-case runs of letters and digits (NFKC first, so ligatures split sanely). */
export function tokenize(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface BaselineDoc<K> {
  key: K;
  text: string;
}

export interface BaselineHit<K> {
  key: K;
  score: number;
}

export class BaselineIndex<K> {
  private readonly keys: K[];
  private readonly index: Bm25Index;

  constructor(docs: ReadonlyArray<BaselineDoc<K>>) {
    this.keys = docs.map((d) => d.key);
    this.index = new Bm25Index(docs.map((d) => tokenize(d.text)));
  }

  get size(): number {
    return this.keys.length;
  }

  /** Pages with at least one query term, best first (ties: document order). */
  search(query: string, limit = Infinity): Array<BaselineHit<K>> {
    return this.index.search(tokenize(query), limit).map((h) => ({ key: this.keys[h.doc], score: h.score }));
  }
}
