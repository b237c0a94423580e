/**
 * The boosted trees over the linear ranker: they learn an interaction a linear score cannot
 * express, traverse as stored, and leave the linear model alone where it already ranks right.
 */
import { describe, expect, it } from 'vitest';
import { score, train, type TrainingQuery } from './model';
import { boost, treeScore, type Tree } from './trees';

/**
 * Questions whose right page is the one candidate fairly high on BOTH features; decoys are higher
 * on one and low on the other, with a larger sum. No positive linear score puts the right page
 * first: it would need each feature's weight below the other's.
 */
function interactionQueries(n: number, seed = 7): TrainingQuery[] {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => {
    const both = Float64Array.from([0.6 + 0.1 * rand(), 0.6 + 0.1 * rand()]);
    // A decoy's features sum to more than the right page's, one of them being low.
    const decoy = () => [0.9 + 0.1 * rand(), 0.35 + 0.1 * rand()];
    const decoys = Array.from({ length: 6 }, (_, j) => Float64Array.from(j % 2 ? decoy().reverse() : decoy()));
    const noise = Array.from({ length: 20 }, () => Float64Array.from([0.5 * rand(), 0.5 * rand()]));
    const candidates = [...decoys, both, ...noise];
    return { candidates, relevant: candidates.map((c) => c === both) };
  });
}

const top1 = (qs: TrainingQuery[], f: (x: Float64Array) => number) =>
  qs.filter((q) => {
    const scores = q.candidates.map(f);
    return q.relevant[scores.indexOf(Math.max(...scores))];
  }).length / qs.length;

describe('boosted ranking trees', () => {
  it('learn an interaction the linear model misses, on questions they were not trained on', () => {
    const training = interactionQueries(80);
    const unseen = interactionQueries(40, 99);
    const model = train(['a', 'b'], training);
    expect(model.trees?.length).toBeGreaterThan(0);
    const linearOnly = { ...model, trees: [] };
    expect(top1(unseen, (x) => score(linearOnly, x))).toBeLessThan(0.8);
    expect(top1(unseen, (x) => score(model, x))).toBeGreaterThan(0.95);
  });

  it('walk a stored tree: x ≤ threshold goes left', () => {
    const tree: Tree = { feature: [1, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 2] };
    expect(treeScore(tree, [9, 0.5])).toBe(-1);
    expect(treeScore(tree, [9, 0.51])).toBe(2);
  });

  it('add nothing where the base scores already rank every right page first with a wide margin', () => {
    const queries: TrainingQuery[] = Array.from({ length: 30 }, (_, i) => {
      const candidates = Array.from({ length: 30 }, (_, j) => Float64Array.from([j === 0 ? 1 : (j % 7) / 10, (i % 5) / 5]));
      return { candidates, relevant: candidates.map((_, j) => j === 0) };
    });
    const trees = boost(queries, (x) => 40 * x[0]);
    const shift = Math.max(...queries.flatMap((q) => q.candidates.map((x) => Math.abs(trees.reduce((s, t) => s + treeScore(t, x), 0)))));
    expect(shift).toBeLessThan(0.05);
  });
});
