import { describe, expect, it } from 'vitest';
import { maxSim } from './maxsim';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('maxSim', () => {
  it('sums, over query vectors, the best dot product with any document vector', () => {
    const query = [v(1, 0), v(0, 1)];
    const doc = [v(0.6, 0.8), v(1, 0), v(-1, 0)];
    // q1: max(0.6, 1, -1) = 1; q2: max(0.8, 0, 0) = 0.8
    expect(maxSim(query, doc)).toBeCloseTo(1.8, 6);
  });

  it('counts negative best matches (no clamping at zero)', () => {
    expect(maxSim([v(1, 0)], [v(-0.5, 0.5)])).toBeCloseTo(-0.5, 6);
  });

  it('is 0 for an empty query or an empty page', () => {
    expect(maxSim([], [v(1)])).toBe(0);
    expect(maxSim([v(1)], [])).toBe(0);
  });

  it('ranks the page that covers every query term above one that repeats a single term', () => {
    const a = v(1, 0, 0);
    const b = v(0, 1, 0);
    const c = v(0, 0, 1);
    const query = [a, b];
    expect(maxSim(query, [a, b, c])).toBeGreaterThan(maxSim(query, [a, a, a, c]));
  });
});
