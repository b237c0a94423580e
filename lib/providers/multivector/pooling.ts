/**
 * Token pooling for page bags (as in ColBERT token pooling, Clavié et al. 2024): hierarchical
 * agglomerative clustering of a page's token vectors down to a bound, each cluster replaced by
 * its normalised mean. Similar tokens ("voltage", "voltages", the same word in two places) merge
 * first, so MaxSim loses little while storage per page stays bounded.
 *
 * Cluster sums are additive, so the dot products between cluster sums are too: a merge updates
 * one row of the Gram matrix in O(n) instead of recomputing vectors, and the whole pooling costs
 * one O(n²·dim) Gram matrix plus O(n²) bookkeeping.
 */
import { l2normalize } from '../embeddings/util';

export type Linkage = 'ward' | 'centroid';

export interface PoolOptions {
  /** ward (default): merge the pair that adds the least within-cluster variance, which keeps clusters small and even. centroid: the pair of most similar cluster means. */
  linkage?: Linkage;
}

export function poolVectors(vectors: Float32Array[], maxVectors: number, opts: PoolOptions = {}): Float32Array[] {
  const n = vectors.length;
  const target = Math.max(1, Math.floor(maxVectors));
  if (n <= target) return vectors.map((v) => l2normalize(Float32Array.from(v)));
  const linkage = opts.linkage ?? 'ward';
  const dim = vectors[0].length;

  // gram[i*n+j] = <sum_i, sum_j> for the current clusters i, j.
  const gram = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = vectors[i];
    for (let j = i; j < n; j++) {
      const b = vectors[j];
      let s = 0;
      for (let k = 0; k < dim; k++) s += a[k] * b[k];
      gram[i * n + j] = s;
      gram[j * n + i] = s;
    }
  }
  const count = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const members: number[][] = Array.from({ length: n }, (_, i) => [i]);

  // Higher is better: the pair to merge next.
  const score = (i: number, j: number): number => {
    const gij = gram[i * n + j];
    const gii = gram[i * n + i];
    const gjj = gram[j * n + j];
    if (linkage === 'centroid') {
      const denom = Math.sqrt(gii * gjj);
      return denom > 0 ? gij / denom : -1;
    }
    // Ward: -(ni nj / (ni + nj)) * |mean_i - mean_j|^2
    const ni = count[i];
    const nj = count[j];
    const dist2 = gii / (ni * ni) + gjj / (nj * nj) - (2 * gij) / (ni * nj);
    return -((ni * nj) / (ni + nj)) * Math.max(0, dist2);
  };

  const best = new Int32Array(n).fill(-1);
  const bestScore = new Float64Array(n).fill(-Infinity);
  const rescan = (i: number) => {
    let b = -1;
    let bs = -Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i || !active[j]) continue;
      const s = score(i, j);
      if (s > bs) {
        bs = s;
        b = j;
      }
    }
    best[i] = b;
    bestScore[i] = bs;
  };
  for (let i = 0; i < n; i++) rescan(i);

  for (let clusters = n; clusters > target; clusters--) {
    let a = -1;
    let as = -Infinity;
    for (let i = 0; i < n; i++) {
      if (active[i] && best[i] >= 0 && bestScore[i] > as) {
        as = bestScore[i];
        a = i;
      }
    }
    const b = best[a];
    // Merge b into a: sums add, so row a of the Gram matrix is the sum of rows a and b.
    for (let k = 0; k < n; k++) {
      if (!active[k] || k === a || k === b) continue;
      const g = gram[a * n + k] + gram[b * n + k];
      gram[a * n + k] = g;
      gram[k * n + a] = g;
    }
    gram[a * n + a] = gram[a * n + a] + 2 * gram[a * n + b] + gram[b * n + b];
    count[a] += count[b];
    active[b] = 0;
    members[a].push(...members[b]);
    members[b] = [];

    rescan(a);
    for (let k = 0; k < n; k++) {
      if (!active[k] || k === a) continue;
      if (best[k] === a || best[k] === b) {
        rescan(k);
      } else {
        const s = score(k, a);
        if (s > bestScore[k]) {
          bestScore[k] = s;
          best[k] = a;
        }
      }
    }
  }

  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    if (!active[i]) continue;
    const mean = new Float32Array(dim);
    for (const m of members[i]) {
      const v = vectors[m];
      for (let k = 0; k < dim; k++) mean[k] += v[k];
    }
    out.push(l2normalize(mean));
  }
  return out;
}
