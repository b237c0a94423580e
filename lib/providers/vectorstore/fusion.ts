/**
 * Hybrid search = a dense leg and a BM25 leg merged into one ranking. Both backends expose the
 * same two fusions (Weaviate natively as `RelativeScore` / `Ranked`; LanceDB through these
 * functions), so an alpha measured on one backend means the same on the other.
 */
import type { ChunkHit, HybridFusion } from '../types';

/**
 * Weight of the dense leg. Low on purpose: on the manuals, exact tokens (part numbers, error
 * codes, menu names) decide most questions and BM25 finds them; the dense leg breaks ties and
 * rescues paraphrases. Chosen so hybrid never ranks worse than BM25 alone (providers eval).
 */
export const DEFAULT_HYBRID_ALPHA = 0.3;

/** Relative-score fusion keeps score gaps (a clear BM25 winner stays a winner); RRF only keeps ranks. */
export const DEFAULT_FUSION: HybridFusion = 'relative-score';

/** The usual RRF constant (Cormack et al.); larger flattens the head of each list. */
const RRF_K = 60;

/** Each leg fetches more than `limit` so that hits found by only one leg can still place. */
const HYBRID_CANDIDATE_FACTOR = 4;
const HYBRID_MIN_CANDIDATES = 40;

export function hybridCandidates(limit: number): number {
  return Math.max(limit * HYBRID_CANDIDATE_FACTOR, HYBRID_MIN_CANDIDATES);
}

export function clampAlpha(alpha: number | undefined): number {
  if (alpha === undefined || !Number.isFinite(alpha)) return DEFAULT_HYBRID_ALPHA;
  return Math.min(1, Math.max(0, alpha));
}

/** Min-max normalisation to [0, 1]; a leg whose hits all score the same gives them all 1. */
function normalise(hits: ChunkHit[]): Map<string, number> {
  const out = new Map<string, number>();
  if (hits.length === 0) return out;
  let min = Infinity;
  let max = -Infinity;
  for (const h of hits) {
    if (h.score < min) min = h.score;
    if (h.score > max) max = h.score;
  }
  const span = max - min;
  for (const h of hits) out.set(h.id, span > 0 ? (h.score - min) / span : 1);
  return out;
}

function merge(dense: ChunkHit[], bm25: ChunkHit[], score: (id: string) => number, limit: number): ChunkHit[] {
  const byId = new Map<string, ChunkHit>();
  for (const h of bm25) byId.set(h.id, h);
  for (const h of dense) if (!byId.has(h.id)) byId.set(h.id, h);
  return [...byId.values()]
    .map((h) => ({ ...h, score: score(h.id) }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, limit);
}

/** Weaviate's relativeScoreFusion: alpha * norm(dense) + (1 - alpha) * norm(bm25); a missing leg counts 0. */
export function relativeScoreFusion(dense: ChunkHit[], bm25: ChunkHit[], alpha: number, limit: number): ChunkHit[] {
  const d = normalise(dense);
  const b = normalise(bm25);
  return merge(dense, bm25, (id) => alpha * (d.get(id) ?? 0) + (1 - alpha) * (b.get(id) ?? 0), limit);
}

/** Weighted reciprocal rank fusion: alpha / (k + rank_dense) + (1 - alpha) / (k + rank_bm25), ranks from 1. */
export function rrfFusion(dense: ChunkHit[], bm25: ChunkHit[], alpha: number, limit: number, k = RRF_K): ChunkHit[] {
  const rank = (hits: ChunkHit[]) => new Map(hits.map((h, i) => [h.id, i + 1] as const));
  const d = rank(dense);
  const b = rank(bm25);
  const term = (w: number, r: number | undefined) => (r === undefined ? 0 : w / (k + r));
  return merge(dense, bm25, (id) => term(alpha, d.get(id)) + term(1 - alpha, b.get(id)), limit);
}

export function fuse(dense: ChunkHit[], bm25: ChunkHit[], opts: { alpha?: number; fusion?: HybridFusion; limit: number }): ChunkHit[] {
  const alpha = clampAlpha(opts.alpha);
  return (opts.fusion ?? DEFAULT_FUSION) === 'rrf' ? rrfFusion(dense, bm25, alpha, opts.limit) : relativeScoreFusion(dense, bm25, alpha, opts.limit);
}
