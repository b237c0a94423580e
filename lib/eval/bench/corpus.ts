/**
 * A synthetic search corpus grown from real manual chunks: replica r of seed chunk i gets the id
 * `<id>~r<r>`, the manual id `<manualId>~r<r>` (so manual filters and per-manual grouping still
 * see distinct manuals), a few words dropped from its text (so BM25 posting lists are not exact
 * copies) and its vector jittered by Gaussian noise and renormalised (cosine to the seed ≈ 0.98),
 * so ANN partitions look like a real library rather than 100 copies of one point.
 * Records are produced lazily in batches: 100k chunks never sit in memory at once.
 */
import type { ChunkRecord, PageRecord } from '../../providers/types';
import { prng } from '../../sample/prng';

export { prng };

/** Standard normal samples (Box–Muller) from a uniform source. */
export function gaussian(rand: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(rand(), 1e-12);
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/**
 * The vector plus noise of expected norm `noise` (relative to a unit vector), L2-normalised.
 * A zero vector stays zero.
 */
export function jitter(v: Float32Array, noise: number, normal: () => number): Float32Array {
  const out = new Float32Array(v.length);
  const sd = noise / Math.sqrt(Math.max(1, v.length));
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i] + sd * normal();
    norm += out[i] * out[i];
  }
  if (norm === 0) return out;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] *= inv;
  return out;
}

const replicaId = (id: string, replica: number) => (replica === 0 ? id : `${id}~r${replica}`);

/** Drops each word with probability `p` (at least one word stays). */
export function perturbText(text: string, p: number, rand: () => number): string {
  const words = text.split(/\s+/).filter(Boolean);
  const kept = words.filter(() => rand() >= p);
  return (kept.length ? kept : words.slice(0, 1)).join(' ');
}

export interface CorpusOptions {
  /** Expected norm of the vector noise (default 0.2 ≈ cosine 0.98 to the seed). */
  noise?: number;
  /** Word drop probability of replica texts (default 0.1). */
  dropWords?: number;
  seed?: number;
}

/**
 * Records number `from` .. `to - 1` of a synthetic corpus, in batches. Record n is replica
 * floor(n / seeds.length) of seed n % seeds.length; replica 0 is the seed itself, any other is
 * `copy(seed, replica, n)`.
 */
function* replicated<T>(seeds: readonly T[], from: number, to: number, batch: number, copy: (seed: T, replica: number, n: number) => T): Generator<T[]> {
  let out: T[] = [];
  for (let n = from; n < to; n++) {
    const seed = seeds[n % seeds.length];
    const replica = Math.floor(n / seeds.length);
    out.push(replica === 0 ? seed : copy(seed, replica, n));
    if (out.length >= batch) {
      yield out;
      out = [];
    }
  }
  if (out.length) yield out;
}

/** Chunk records of the synthetic corpus (see replicated): replicas get perturbed text and a jittered vector. */
export function* syntheticChunks(seeds: readonly ChunkRecord[], from: number, to: number, batch: number, opts: CorpusOptions = {}): Generator<ChunkRecord[]> {
  if (seeds.length === 0) throw new Error('no seed chunks: ingest at least one manual first');
  const noise = opts.noise ?? 0.2;
  const drop = opts.dropWords ?? 0.1;
  yield* replicated(seeds, from, to, batch, (seed, replica, n) => {
    // Per-record generator: the same record always gets the same noise, whatever the batching.
    const rand = prng((opts.seed ?? 1) * 2654435761 + n);
    return {
      ...seed,
      id: replicaId(seed.id, replica),
      manualId: replicaId(seed.manualId, replica),
      text: perturbText(seed.text, drop, rand),
      vector: jitter(seed.vector, noise, gaussian(rand)),
    };
  });
}

/** Page records, replicated like the chunks (bags jittered vector by vector). */
export function* syntheticPages(seeds: readonly PageRecord[], from: number, to: number, batch: number, opts: CorpusOptions = {}): Generator<PageRecord[]> {
  if (seeds.length === 0) throw new Error('no seed pages: ingest at least one manual first');
  const noise = opts.noise ?? 0.2;
  yield* replicated(seeds, from, to, batch, (seed, replica, n) => {
    const normal = gaussian(prng((opts.seed ?? 1) * 40503 + n));
    return { ...seed, manualId: replicaId(seed.manualId, replica), vectors: seed.vectors.map((v) => jitter(v, noise, normal)) };
  });
}

/** Pages that go with `chunks` chunks at the seeds' chunks-per-page ratio, capped (page bags are large). */
export function pagesFor(chunks: number, seedChunks: number, seedPages: number, maxPages: number): number {
  if (seedChunks === 0) return 0;
  return Math.min(maxPages, Math.max(1, Math.round((chunks * seedPages) / seedChunks)));
}
