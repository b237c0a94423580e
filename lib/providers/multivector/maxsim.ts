/**
 * Late-interaction (ColBERT) scoring: for each query vector, the best dot product with any
 * document vector, summed over the query. Vectors are L2-normalised, so each term is a cosine
 * in [-1, 1] and the score is at most query.length.
 */
export function maxSim(query: Float32Array[], doc: Float32Array[]): number {
  if (query.length === 0 || doc.length === 0) return 0;
  let total = 0;
  for (const q of query) {
    let best = -Infinity;
    const n = q.length;
    for (const d of doc) {
      let s = 0;
      for (let i = 0; i < n; i++) s += q[i] * d[i];
      if (s > best) best = s;
    }
    total += best;
  }
  return total;
}
