/**
 * Ranking signals of a question against candidate pages. Every signal is a general retrieval
 * method (BM25 at page, passage, heading and manual level; query-term coverage; OCR-tolerant
 * trigram matching; the ranks the store's text leg and multi-vector page leg give a page;
 * neighbour pages; how little text a page has), scaled to [0, 1] within the question so one
 * learned weight vector fits every question (./model.ts).
 *
 * The store's legs count by rank only, not by score: an embedder other than the one the weights
 * were trained with scores on another scale and spread, and any change that keeps each leg's
 * order leaves the ranking as it was (rank.test.ts). Manual-level BM25 reads library-wide
 * statistics; scaled by the best candidate manual's within the question it stays in [0, 1], and it
 * was measured in libraries of 7 to 18 manuals, where dropping it cost R@1 (docs/eval.md).
 * Nothing here names a word, a code or a phrasing of any question.
 */
import { distinctTerms } from '../text/analyze';
import type { LibraryIndex } from './library-index';

export const FEATURES = [
  'page_bm25',
  'page_bm25_local',
  'chunk_bm25',
  'heading_bm25',
  'manual_bm25',
  'identity_bm25',
  'page_coverage',
  'chunk_coverage',
  'fuzzy_coverage',
  'neighbour_bm25',
  'bigram_coverage',
  'rr_page',
  'rr_chunk',
  'rr_dense',
  'rr_visual',
  'page_sparsity',
  'neighbour_if_sparse',
] as const;
type FeatureName = (typeof FEATURES)[number];

interface ScoredPageRef {
  manualId: string;
  page: number;
  score: number;
}

export interface RankingInput {
  question: string;
  /** Only these manuals (all when absent). */
  manualIds?: readonly string[];
  /** Passages of the store's dense (or hybrid) search, best first. */
  dense?: ReadonlyArray<ScoredPageRef>;
  /** Pages of the multi-vector page search, best first. */
  visual?: ReadonlyArray<ScoredPageRef>;
}

export interface Candidate {
  /** Page index in the LibraryIndex. */
  page: number;
  features: Float64Array;
  /** The page's chunks (indices) that match the question, best first. */
  chunks: Array<{ chunk: number; score: number }>;
  /** Every leg ranks this page first: page BM25, passage BM25, the store's text and page legs (./rank.ts keeps it first). */
  unanimous: boolean;
}

/** Candidates per source: enough that the right page is almost always among them. */
const CANDIDATES_PER_SOURCE = 40;

const maxOf = (values: Iterable<number>) => {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
};
const scaled = (v: number, max: number) => (max > 0 ? v / max : 0);

/** Best similarity of each question term to any of a page's terms (1 when the page has it). */
function fuzzyMatcher(index: LibraryIndex, query: string[]) {
  const similar = new Map(query.map((t) => [t, index.similarTerms(t)]));
  return (term: string, pageTerms: Set<string>): number => {
    if (pageTerms.has(term)) return 1;
    const near = similar.get(term)!;
    let best = 0;
    // Walk the smaller side.
    if (near.size < pageTerms.size) {
      for (const [t, s] of near) if (s > best && pageTerms.has(t)) best = s;
    } else {
      for (const t of pageTerms) best = Math.max(best, near.get(t) ?? 0);
    }
    return best;
  };
}

/** The candidate pages of a question and their features. */
export function candidateFeatures(index: LibraryIndex, input: RankingInput): Candidate[] {
  const q = distinctTerms(input.question);
  const inScope = input.manualIds?.length ? new Set(input.manualIds) : null;
  const allowed = (page: number) => !inScope || inScope.has(index.pages[page].manualId);

  const pageScores = index.pageIndex.scores(q);
  const chunkScores = index.chunkIndex.scores(q);
  const headingScores = index.headingIndex.scores(q);
  const manualScores = index.manualIndex.scores(q);
  const identityScores = index.identityIndex.scores(q);

  // Candidates: best pages by page BM25, pages of the best passages, and the store's legs.
  const chosen = new Set<number>();
  const top = (scores: Map<number, number>, toPage: (doc: number) => number) =>
    [...scores]
      .filter(([doc]) => allowed(toPage(doc)))
      .sort((a, b) => b[1] - a[1])
      .slice(0, CANDIDATES_PER_SOURCE)
      .forEach(([doc]) => chosen.add(toPage(doc)));
  const chunkPage = (c: number) => index.pageOf(index.chunks[c].manualId, index.chunks[c].page)!;
  top(pageScores, (p) => p);
  top(chunkScores, chunkPage);
  const legScore = (list: ReadonlyArray<ScoredPageRef> | undefined) => {
    const out = new Map<number, number>();
    for (const h of list ?? []) {
      const p = index.pageOf(h.manualId, h.page);
      if (p === undefined || !allowed(p)) continue;
      out.set(p, Math.max(out.get(p) ?? -Infinity, h.score));
    }
    return out;
  };
  const dense = legScore(input.dense);
  const visual = legScore(input.visual);
  for (const p of [...dense.keys()].slice(0, CANDIDATES_PER_SOURCE)) chosen.add(p);
  for (const p of visual.keys()) chosen.add(p);
  if (chosen.size === 0) return [];

  // Per-page passage scores (best chunk), within the candidates.
  const bestChunks = new Map<number, Array<{ chunk: number; score: number }>>();
  for (const [c, s] of chunkScores) {
    const p = chunkPage(c);
    if (!chosen.has(p)) continue;
    let list = bestChunks.get(p);
    if (!list) bestChunks.set(p, (list = []));
    list.push({ chunk: c, score: s });
  }
  for (const list of bestChunks.values()) list.sort((a, b) => b.score - a.score);

  // Query-term weights for coverage: IDF over pages (a term no page has weighs most).
  const weights = q.map((t) => index.pageIndex.idf(t));
  const totalWeight = weights.reduce((a, b) => a + b, 0) || 1;
  const coverage = (has: (t: string) => number) => q.reduce((s, t, i) => s + weights[i] * has(t), 0) / totalWeight;
  const fuzzy = fuzzyMatcher(index, q);

  const candidates = [...chosen];
  // Reciprocal ranks in each source ranking (1 for its best page, 0 when absent): rank-based, so
  // comparable across questions whatever the score scale (the idea behind reciprocal rank fusion).
  const reciprocalRanks = (scores: Map<number, number>) => {
    const order = [...scores].filter(([p]) => chosen.has(p)).sort((a, b) => b[1] - a[1]);
    return new Map(order.map(([p], i) => [p, 1 / (i + 1)]));
  };
  const chunkPageScores = new Map<number, number>();
  for (const [c, s] of chunkScores) {
    const p = chunkPage(c);
    if (s > (chunkPageScores.get(p) ?? 0)) chunkPageScores.set(p, s);
  }
  const rr = {
    page: reciprocalRanks(pageScores),
    chunk: reciprocalRanks(chunkPageScores),
    dense: reciprocalRanks(dense),
    visual: reciprocalRanks(visual),
  };
  // The four retrievers: page BM25, passage BM25, the store's text leg and its multi-vector page leg.
  const legs = [rr.page, rr.chunk, rr.dense, rr.visual];
  // Adjacent question-term pairs (stop words dropped) found adjacent on the page: term dependence.
  const bigrams = q.slice(1).map((t, i) => `${q[i]} ${t}`);
  const manualOfPage = (p: number) => index.manualIndexOf.get(index.pages[p].manualId)!;
  const neighbour = (p: number) => {
    const { manualId, number } = index.pages[p];
    const before = index.pageOf(manualId, number - 1);
    const after = index.pageOf(manualId, number + 1);
    return Math.max(before === undefined ? 0 : (pageScores.get(before) ?? 0), after === undefined ? 0 : (pageScores.get(after) ?? 0));
  };
  const raw = candidates.map((p) => {
    const chunks = bestChunks.get(p) ?? [];
    const m = manualOfPage(p);
    const chunkCoverage = maxOf(chunks.slice(0, 3).map(({ chunk }) => coverage((t) => (index.chunkIndex.tf(t, chunk) > 0 ? 1 : 0))));
    const local = index.withinManual.get(index.pages[p].manualId)!;
    return {
      page_bm25: pageScores.get(p) ?? 0,
      page_bm25_local: local.index.score(q, local.localOf.get(p)!),
      chunk_bm25: chunks[0]?.score ?? 0,
      heading_bm25: headingScores.get(p) ?? 0,
      manual_bm25: manualScores.get(m) ?? 0,
      identity_bm25: identityScores.get(m) ?? 0,
      page_coverage: coverage((t) => (index.pageTermSets[p].has(t) ? 1 : 0)),
      chunk_coverage: chunkCoverage,
      fuzzy_coverage: coverage((t) => fuzzy(t, index.pageTermSets[p])),
      neighbour_bm25: neighbour(p),
      bigram_coverage: bigrams.length ? bigrams.filter((b) => index.pageBigrams(p).has(b)).length / bigrams.length : 0,
      rr_page: rr.page.get(p) ?? 0,
      rr_chunk: rr.chunk.get(p) ?? 0,
      rr_dense: rr.dense.get(p) ?? 0,
      rr_visual: rr.visual.get(p) ?? 0,
      // How little text the page has for its manual (0 = a usual page of text, →1 = almost none):
      // figure, drawing and table-of-pictures pages, whose words are on the pages beside them.
      page_sparsity: 1 - Math.min(1, index.pageTermSets[p].size / index.medianPageTerms.get(index.pages[p].manualId)!),
      neighbour_if_sparse: 0, // set below from the scaled neighbour score
    };
  });
  // Scale the lexical scores within the question (by the best candidate's).
  const scale = (name: keyof (typeof raw)[number]) => {
    // Coverages are already shares of the question, and reciprocal ranks already in [0, 1]: kept
    // absolute, so "covers all of it" or "ranked first" means the same everywhere.
    if (name.endsWith('coverage') || name.startsWith('rr_') || name.endsWith('sparsity')) return (v: number) => v;
    const max = maxOf(raw.map((r) => r[name]));
    return (v: number) => scaled(v, max);
  };
  const scalers = Object.fromEntries(FEATURES.map((f) => [f, scale(f)])) as Record<FeatureName, (v: number) => number>;
  // A linear model cannot multiply: the neighbour's score counts for a text-poor page (a figure
  // described on the page before) but not for a page that has words of its own.
  const [product, neighbourAt, sparsityAt] = (['neighbour_if_sparse', 'neighbour_bm25', 'page_sparsity'] as const).map((f) => FEATURES.indexOf(f));
  return candidates.map((p, i) => {
    const features = Float64Array.from(FEATURES.map((f) => scalers[f](raw[i][f])));
    features[product] = features[neighbourAt] * features[sparsityAt];
    const unanimous = legs.every((leg) => leg.get(p) === 1);
    return { page: p, features, chunks: bestChunks.get(p) ?? [], unanimous };
  });
}
