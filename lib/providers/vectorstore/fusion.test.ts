import { describe, expect, it } from 'vitest';
import type { ChunkHit } from '../types';
import { DEFAULT_FUSION, DEFAULT_HYBRID_ALPHA, clampAlpha, fuse, hybridCandidates, relativeScoreFusion, rrfFusion } from './fusion';

const hit = (id: string, score: number): ChunkHit => ({ id, manualId: 'm', page: 1, heading: '', text: id, ocr: false, bboxes: [], score });

describe('hybrid fusion', () => {
  it('defaults: keyword-leaning relative-score fusion', () => {
    expect(DEFAULT_HYBRID_ALPHA).toBe(0.3);
    expect(DEFAULT_FUSION).toBe('relative-score');
    expect(clampAlpha(undefined)).toBe(0.3);
    expect(clampAlpha(Number.NaN)).toBe(0.3);
    expect(clampAlpha(-1)).toBe(0);
    expect(clampAlpha(7)).toBe(1);
    expect(hybridCandidates(5)).toBe(40);
    expect(hybridCandidates(50)).toBe(200);
  });

  it('relative-score fusion min-max normalises each leg and weights them by alpha', () => {
    const dense = [hit('d1', 0.9), hit('both', 0.7), hit('d2', 0.5)];
    const bm25 = [hit('both', 12), hit('k1', 8), hit('k2', 2)];
    const fused = relativeScoreFusion(dense, bm25, 0.3, 10);
    const score = Object.fromEntries(fused.map((h) => [h.id, h.score]));
    expect(score.both).toBeCloseTo(0.3 * 0.5 + 0.7 * 1, 10);
    expect(score.d1).toBeCloseTo(0.3, 10);
    expect(score.k1).toBeCloseTo(0.7 * 0.6, 10);
    expect(score.d2).toBeCloseTo(0, 10);
    expect(score.k2).toBeCloseTo(0, 10);
    expect(fused.map((h) => h.id)).toEqual(['both', 'k1', 'd1', 'd2', 'k2']);
    // The original hit (text etc.) is kept, only the score changes.
    expect(fused[0]).toMatchObject({ id: 'both', text: 'both' });
  });

  it('a leg whose hits tie gives each of them full weight', () => {
    const fused = relativeScoreFusion([hit('a', 0.4)], [hit('b', 3), hit('c', 3)], 0.5, 10);
    expect(fused.map((h) => h.score)).toEqual([0.5, 0.5, 0.5]);
    expect(fused.map((h) => h.id)).toEqual(['a', 'b', 'c']); // ties in id order
  });

  it('weighted RRF uses ranks only', () => {
    const dense = [hit('x', 0.99), hit('y', 0.98)];
    const bm25 = [hit('y', 100), hit('z', 1)];
    const fused = rrfFusion(dense, bm25, 0.5, 10, 60);
    const score = Object.fromEntries(fused.map((h) => [h.id, h.score]));
    expect(score.y).toBeCloseTo(0.5 / 62 + 0.5 / 61, 12);
    expect(score.x).toBeCloseTo(0.5 / 61, 12);
    expect(score.z).toBeCloseTo(0.5 / 62, 12);
    expect(fused.map((h) => h.id)).toEqual(['y', 'x', 'z']);
  });

  it('fuse() dispatches on the fusion and cuts to the limit', () => {
    const dense = [hit('a', 1), hit('b', 0.5)];
    const bm25 = [hit('c', 4), hit('a', 1)];
    expect(fuse(dense, bm25, { limit: 2 }).map((h) => h.id)).toEqual(['c', 'a']);
    expect(fuse(dense, bm25, { limit: 3, alpha: 1 }).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(fuse(dense, bm25, { limit: 1, fusion: 'rrf', alpha: 0.5 }).map((h) => h.id)).toEqual(['a']);
    expect(fuse([], [], { limit: 5 })).toEqual([]);
  });
});
