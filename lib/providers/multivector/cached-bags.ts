import { safeCache, type CacheKey, type VectorCache } from '../embeddings/cache';

/**
 * The pooled vector bag of each page `keys` name: from the cache where it holds them, the rest
 * embedded `batchSize` pages at a time by `embed` (handed the pages' indexes, it returns their
 * bags in that order) and stored back after each batch. A page with an empty bag is not stored.
 * A failing cache only costs its speed-up (safeCache).
 */
export async function cachedPageBags(
  cache: VectorCache | null,
  keys: CacheKey[],
  batchSize: number,
  embed: (indexes: number[]) => Promise<Float32Array[][]>,
  signal?: AbortSignal,
): Promise<Float32Array[][]> {
  const out: Array<Float32Array[] | undefined> = new Array(keys.length);
  if (cache) {
    const hits = await safeCache(() => cache.getMany(keys), new Map<number, Float32Array[]>());
    for (const [i, bag] of hits) out[i] = bag;
  }
  const todo = keys.map((_, i) => i).filter((i) => !out[i]);
  for (let s = 0; s < todo.length; s += batchSize) {
    signal?.throwIfAborted();
    const idx = todo.slice(s, s + batchSize);
    const bags = await embed(idx);
    const fresh = idx.map((i, j) => {
      out[i] = bags[j];
      return { key: keys[i], vectors: bags[j] };
    });
    if (cache) await safeCache(() => cache.putMany(fresh.filter((f) => f.vectors.length > 0)), undefined);
  }
  return out as Float32Array[][];
}
