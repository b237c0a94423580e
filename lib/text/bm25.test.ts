import { describe, expect, it } from 'vitest';
import { BM25_B, BM25_K1, Bm25Index, idf } from './bm25';

const DOCS = [['fuse', 'rating'], ['fuse', 'fuse', 'holder', 'spare', 'rating', 'panel'], ['motor']];

describe('Bm25Index parameters', () => {
  it('defaults to k1 = 1.2, b = 0.75 and takes a use’s own', () => {
    const [k1, b] = [BM25_K1, BM25_B];
    const avg = 9 / 3;
    const byHand = (f: number, len: number, K1: number, B: number) => (idf(3, 2) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * len) / avg));
    expect(new Bm25Index(DOCS).termScore('fuse', 2, 1)).toBeCloseTo(byHand(2, 6, k1, b), 12);
    const own = new Bm25Index(DOCS, { k1: 2, b: 0.3 });
    expect(own.termScore('fuse', 2, 1)).toBeCloseTo(byHand(2, 6, 2, 0.3), 12);
    // b = 0: no length normalisation, so one occurrence weighs the same in a short and a long document
    const flat = new Bm25Index(DOCS, { b: 0 });
    expect(flat.score(['rating'], 0)).toBe(flat.score(['rating'], 1));
  });

  it('lengthNorm is what one occurrence adds per unit of idf', () => {
    const index = new Bm25Index(DOCS, { k1: 1.2, b: 0.3 });
    expect(index.lengthNorm(1)).toBe((1.2 + 1) / (1 + 1.2 * (1 - 0.3 + (0.3 * 6) / 3)));
    for (const doc of [0, 1]) expect(index.lengthNorm(doc) * index.idf('rating')).toBeCloseTo(index.termScore('rating', 1, doc), 12);
    // a longer document than average weighs an occurrence less
    expect(index.lengthNorm(1)).toBeLessThan(index.lengthNorm(0));
  });
});
