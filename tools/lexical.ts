/**
 * In-memory lexical ranking of the pages of a few manuals, used by hybrid_search on top of the
 * store's own legs. The store's BM25 indexes the chunk text only and weighs a term by its rarity in
 * the whole library, so the device name a technician puts in every question ("SKR Mini E3 V2.0")
 * outweighs the words that pick the page, and the title page wins. Here ranking is two-level:
 *
 *   1. which manual: BM25 over whole manuals (IDF across manuals), so the terms that name a device
 *      pick its manual;
 *   2. which page of it: BM25 over the manual's chunks (section heading included), with each term's
 *      weight shrunk by the share of the manual's pages that contain it, so a term on every page
 *      (the device name, the vendor) no longer decides between them.
 *
 * A page scores its best chunk × its manual's score. Terms come from `searchTerms` (number+unit and
 * part-number variants). The chunks are read from the vector store once per manual and cached.
 */
import { searchTerms } from '@/lib/agent/text';
import type { ChunkHit, VectorStore } from '@/lib/providers/types';

const K1 = 1.2;
const B = 0.75;
/**
 * How hard a term on many of a manual's pages is discounted within it: weight × (1 − share)^γ.
 * γ = 2 measured best on the dev set (device names on 8 of 10 pages keep ~1/10 of their weight).
 */
const GAMMA = 2;
/** Pseudo-pages added to a manual's page count, so in a one-page manual a term is not "on every page". */
const PAGE_SMOOTHING = 2;

export interface LexChunk {
  hit: ChunkHit;
  tf: Map<string, number>;
  length: number;
}

function termCounts(list: string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of list) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Term statistics of one manual's chunks. */
export class ManualLexicon {
  readonly chunks: LexChunk[];
  /** Term → number of pages with a chunk that contains it. */
  readonly termPages = new Map<string, number>();
  /** Term → occurrences in the whole manual. */
  readonly termFreq = new Map<string, number>();
  /** Term → number of chunks that contain it. */
  readonly chunkDf = new Map<string, number>();
  readonly pageCount: number;
  readonly length: number;

  constructor(
    readonly manualId: string,
    hits: ChunkHit[],
  ) {
    this.chunks = hits.map((hit) => {
      const list = searchTerms(`${hit.heading}\n${hit.text}`);
      return { hit, tf: termCounts(list), length: list.length };
    });
    const pagesOf = new Map<string, Set<number>>();
    let length = 0;
    for (const c of this.chunks) {
      length += c.length;
      for (const [t, f] of c.tf) {
        this.termFreq.set(t, (this.termFreq.get(t) ?? 0) + f);
        this.chunkDf.set(t, (this.chunkDf.get(t) ?? 0) + 1);
        let pages = pagesOf.get(t);
        if (!pages) pagesOf.set(t, (pages = new Set()));
        pages.add(c.hit.page);
      }
    }
    for (const [t, pages] of pagesOf) this.termPages.set(t, pages.size);
    this.pageCount = new Set(this.chunks.map((c) => c.hit.page)).size;
    this.length = length;
  }

  /** Share of the manual's pages that contain the term (smoothed). */
  pageShare(term: string): number {
    return (this.termPages.get(term) ?? 0) / (this.pageCount + PAGE_SMOOTHING);
  }
}

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
const saturate = (f: number, length: number, avgLength: number) => (f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / (avgLength || 1)));

export interface LexicalPage {
  manualId: string;
  page: number;
  /** Manual score × best chunk score, both scaled to [0, 1]. */
  score: number;
  /** The page's chunks that match, best first. */
  chunks: Array<{ hit: ChunkHit; score: number }>;
}

export interface LexicalRanking {
  pages: LexicalPage[];
  /** Manual → its score (the best manual is 1). */
  manuals: Map<string, number>;
  /**
   * Manual → the question's terms on at least half of its pages: they name the manual's device
   * ("SKR Mini E3", "HX-200") rather than what is asked. The offline answer weighs them little.
   * Bare numbers are never the topic ("port 0", "Rev 3", page numbers on every page).
   */
  topicTerms: Map<string, string[]>;
}

/** Page share from which a question term names the manual's subject rather than a detail. */
export const TOPIC_PAGE_SHARE = 0.5;

/** Ranks the pages of `lexicons` for the question (pages without a matching term are left out). */
export function rankPagesLexically(question: string, lexicons: ManualLexicon[]): LexicalRanking {
  const known = (t: string) => lexicons.some((l) => l.termFreq.has(t));
  const qTerms = [...new Set(searchTerms(question, known))];
  const empty: LexicalRanking = { pages: [], manuals: new Map(), topicTerms: new Map() };
  if (qTerms.length === 0 || lexicons.length === 0) return empty;

  // Level 1: the manuals as documents.
  const nManuals = lexicons.length;
  const avgManualLength = lexicons.reduce((s, l) => s + l.length, 0) / nManuals;
  const manualDf = (t: string) => lexicons.reduce((n, l) => n + (l.termFreq.has(t) ? 1 : 0), 0);
  const manualIdf = new Map(qTerms.map((t) => [t, idf(nManuals, manualDf(t))]));
  const rawManual = new Map<string, number>();
  for (const l of lexicons) {
    let s = 0;
    for (const t of qTerms) {
      const f = l.termFreq.get(t);
      if (f) s += manualIdf.get(t)! * saturate(f, l.length, avgManualLength);
    }
    rawManual.set(l.manualId, s);
  }
  const bestManual = Math.max(...rawManual.values());
  if (!(bestManual > 0)) return empty;
  const manuals = new Map([...rawManual].map(([id, s]) => [id, s / bestManual]));

  // Level 2: the chunks, with IDF over every chunk and a within-manual discount.
  const nChunks = lexicons.reduce((s, l) => s + l.chunks.length, 0);
  const avgChunkLength = lexicons.reduce((s, l) => s + l.length, 0) / (nChunks || 1);
  const chunkIdf = new Map(qTerms.map((t) => [t, idf(nChunks, lexicons.reduce((n, l) => n + (l.chunkDf.get(t) ?? 0), 0))]));
  const byPage = new Map<string, LexicalPage>();
  let bestChunk = 0;
  for (const l of lexicons) {
    const prior = manuals.get(l.manualId) ?? 0;
    if (prior <= 0) continue;
    const weights = qTerms.map((t) => [t, chunkIdf.get(t)! * (1 - l.pageShare(t)) ** GAMMA] as const);
    for (const c of l.chunks) {
      let s = 0;
      for (const [t, w] of weights) {
        const f = c.tf.get(t);
        if (f) s += w * saturate(f, c.length, avgChunkLength);
      }
      if (s <= 0) continue;
      bestChunk = Math.max(bestChunk, s);
      const key = `${l.manualId}\u0000${c.hit.page}`;
      let p = byPage.get(key);
      if (!p) byPage.set(key, (p = { manualId: l.manualId, page: c.hit.page, score: 0, chunks: [] }));
      p.chunks.push({ hit: c.hit, score: s });
    }
  }
  const pages = [...byPage.values()];
  for (const p of pages) {
    p.chunks.sort((a, b) => b.score - a.score);
    p.score = (manuals.get(p.manualId)! * p.chunks[0].score) / bestChunk;
  }
  pages.sort((a, b) => b.score - a.score || a.manualId.localeCompare(b.manualId) || a.page - b.page);
  const topicTerms = new Map(
    lexicons.filter((l) => (manuals.get(l.manualId) ?? 0) > 0).map((l) => [l.manualId, qTerms.filter((t) => !/^[\d.,]+$/.test(t) && l.pageShare(t) >= TOPIC_PAGE_SHARE)]),
  );
  return { pages, manuals, topicTerms };
}

// ---------------------------------------------------------------------------------------------
// Loading: a manual's chunks come from the vector store (the one door to the index), cached per
// store and manual, and re-read when the manual's chunk count changes (re-ingested).

/** Most chunks one store query returns (records.ts MAX_LIMIT). */
const QUERY_LIMIT = 1000;
/** Manuals kept in memory per store. */
const CACHE_MANUALS = 64;

interface CacheEntry {
  count: number;
  lexicon: Promise<ManualLexicon>;
}

const caches = new WeakMap<VectorStore, Map<string, CacheEntry>>();

/** Every chunk of a manual: dense queries restricted to the manual (windows of pages if it is large). */
async function readChunks(store: VectorStore, manualId: string, counts: { chunks: number; pages: number }, vector: Float32Array, signal?: AbortSignal): Promise<ChunkHit[]> {
  if (counts.chunks <= QUERY_LIMIT) {
    return store.denseSearch(vector, { limit: QUERY_LIMIT, filter: { manualIds: [manualId] }, signal });
  }
  const out: ChunkHit[] = [];
  let window = Math.max(1, Math.floor((QUERY_LIMIT / counts.chunks) * counts.pages * 0.5));
  for (let from = 1; from <= counts.pages; ) {
    const to = from + window - 1;
    const hits = await store.denseSearch(vector, { limit: QUERY_LIMIT, filter: { manualIds: [manualId], pages: { from, to } }, signal });
    if (hits.length >= QUERY_LIMIT && window > 1) {
      window = Math.max(1, Math.floor(window / 2));
      continue;
    }
    out.push(...hits);
    from = to + 1;
  }
  return out;
}

/**
 * The lexicons of these manuals (in the same order). `vector` is any query vector of the store's
 * dimension: reading a manual is a dense query restricted to it, with a limit above its size.
 */
export async function loadLexicons(store: VectorStore, manualIds: string[], vector: Float32Array, signal?: AbortSignal): Promise<ManualLexicon[]> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  const c = cache;
  return Promise.all(
    manualIds.map(async (id) => {
      const counts = await store.count({ manualIds: [id] });
      const cached = c.get(id);
      if (cached && cached.count === counts.chunks) {
        // Most recently used last, so the oldest is evicted first.
        c.delete(id);
        c.set(id, cached);
        return cached.lexicon;
      }
      const lexicon = readChunks(store, id, counts, vector, signal).then((hits) => new ManualLexicon(id, hits));
      const entry = { count: counts.chunks, lexicon };
      c.delete(id);
      c.set(id, entry);
      // A failed read is not cached.
      lexicon.catch(() => {
        if (c.get(id) === entry) c.delete(id);
      });
      while (c.size > CACHE_MANUALS) c.delete(c.keys().next().value!);
      return lexicon;
    }),
  );
}
