import { describe, expect, it } from 'vitest';
import { chooseClarifyPolicy, clarifyFigures, clarifyReport, type ClarifyOutcome, type ClarifySample } from './clarify-cv';

const right: ClarifyOutcome = { rank: 1, wrongFirst: false, wrongStated: false };
const wrong: ClarifyOutcome = { rank: null, wrongFirst: true, wrongStated: true };
const sample = (id: string, fold: string, share: number | undefined, open = right, picked = right): ClarifySample => ({ id, fold, set: 'dev', answerable: true, share, open, ...(share !== undefined && share < 1 ? { picked } : {}) });

describe('the clarify threshold under cross-validation', () => {
  it('replays a threshold: below it a question asks and counts with its picked outcome', () => {
    const s = [sample('a', 'm1', 0.4, wrong), sample('b', 'm2', 0.9), sample('c', 'm3', undefined)];
    expect(clarifyFigures(s, () => 0)).toMatchObject({ clarify_rate: 0, 'wrong_device@1': 1, wrong_device_stated: 1, 'recall@1': 0.667 });
    expect(clarifyFigures(s, () => 0.5)).toMatchObject({ clarify_rate: 0.333, 'wrong_device@1': 0, wrong_device_stated: 0, 'recall@1': 1 });
  });
  it('chooses the fewest wrong-device outcomes with at most 30 % asked, then the smallest threshold', () => {
    const s = [sample('a', 'm1', 0.4, wrong), ...Array.from({ length: 9 }, (_, i) => sample(`x${i}`, `f${i}`, 0.8))];
    expect(chooseClarifyPolicy(s).maxTopShare).toBe(0.45);
    // Every question below 0.85 would be asked: over the bound, so not chosen.
    expect(chooseClarifyPolicy(s).maxTopShare).toBeLessThan(0.85);
  });
  it('bounds asking among the questions that could ask, not among all: named ones never ask', () => {
    const open = [sample('a', 'm1', 0.4, wrong), sample('b', 'm2', 0.6, wrong), ...Array.from({ length: 3 }, (_, i) => sample(`o${i}`, `g${i}`, 0.95))];
    const named = Array.from({ length: 10 }, (_, i) => sample(`n${i}`, `h${i}`, undefined));
    // Asking both would be 2 of 15 questions, but 2 of the 5 that could ask: over the bound.
    expect(clarifyFigures([...open, ...named], () => 0.65)).toMatchObject({ clarify_rate: 0.133, clarify_rate_open: 0.4 });
    expect(chooseClarifyPolicy([...open, ...named]).maxTopShare).toBe(0.45);
  });
  it('reports asking off beside the fold thresholds, overall and per set', () => {
    const r = clarifyReport([sample('a', 'm1', 0.4, wrong), sample('b', 'm2', 0.42, wrong), sample('c', 'm3', 0.95), sample('d', 'm4', 0.95), sample('e', 'm5', 0.95), sample('f', 'm6', 0.95), sample('g', 'm7', 0.95)]);
    expect(r.never.overall['wrong_device@1']).toBe(2);
    expect(r.cv.overall['wrong_device@1']).toBe(0);
    expect(Object.keys(r.folds)).toHaveLength(7);
  });
});
