import { describe, expect, it } from 'vitest';
import { l2normalize } from '../embeddings/util';
import { maxSim } from './maxsim';
import { poolVectors } from './pooling';

const unit = (...xs: number[]) => l2normalize(Float32Array.from(xs));
const norm = (x: Float32Array) => Math.hypot(...x);

function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

describe('poolVectors', () => {
  it('returns normalised copies when already within the bound', () => {
    const input = [Float32Array.from([3, 4]), Float32Array.from([0, 2])];
    const out = poolVectors(input, 4);
    expect(out.map((x) => Array.from(x))).toEqual([
      [0.6000000238418579, 0.800000011920929],
      [0, 1],
    ]);
    expect(out[0]).not.toBe(input[0]);
    expect(Array.from(input[0])).toEqual([3, 4]);
  });

  it.each(['ward', 'centroid'] as const)('%s: merges near-duplicates first and keeps distinct directions apart', (linkage) => {
    const rand = seeded(7);
    const jitter = (base: number[]) => unit(...base.map((b) => b + rand() * 0.05));
    // Three tight groups of 4 around the axes.
    const groups = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const input = groups.flatMap((g) => Array.from({ length: 4 }, () => jitter(g)));
    const out = poolVectors(input, 3, { linkage });
    expect(out).toHaveLength(3);
    for (const g of groups) {
      const best = Math.max(...out.map((o) => o[0] * g[0] + o[1] * g[1] + o[2] * g[2]));
      expect(best).toBeGreaterThan(0.99);
    }
    for (const o of out) expect(norm(o)).toBeCloseTo(1, 5);
  });

  it('bounds a large bag and loses little MaxSim for queries drawn from it', () => {
    const rand = seeded(3);
    const dim = 32;
    // 60 topics, each written 4 ways (small perturbations): 240 vectors pooled to 64.
    const topics = Array.from({ length: 60 }, () => unit(...Array.from({ length: dim }, rand)));
    const bag = topics.flatMap((t) => Array.from({ length: 4 }, () => unit(...Array.from(t, (x) => x + rand() * 0.1))));
    const pooled = poolVectors(bag, 64);
    expect(pooled).toHaveLength(64);
    const query = topics.slice(0, 10);
    const full = maxSim(query, bag);
    const kept = maxSim(query, pooled);
    expect(kept).toBeGreaterThan(0.85 * full);
    // And a random (unrelated) query stays far below.
    const other = Array.from({ length: 10 }, () => unit(...Array.from({ length: dim }, rand)));
    expect(maxSim(other, pooled)).toBeLessThan(0.7 * kept);
  });

  it('pools to a single mean when the bound is 1', () => {
    const out = poolVectors([unit(1, 0), unit(0, 1)], 1);
    expect(out).toHaveLength(1);
    expect(out[0][0]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(out[0][1]).toBeCloseTo(Math.SQRT1_2, 5);
  });

  it('handles an empty bag', () => {
    expect(poolVectors([], 8)).toEqual([]);
  });
});
