import { describe, expect, it } from 'vitest';
import type { ManualView } from '@/lib/manual-view';
import { TimeLeftEstimator, formatTimeLeft } from './time-left';

const m = (status: ManualView['status'], progressDone: number, progressTotal = 2000) => ({ id: 'a', status, progressDone, progressTotal }) as ManualView;

describe('time left', () => {
  it('extrapolates the rate seen in the current stage and restarts with each stage', () => {
    const e = new TimeLeftEstimator();
    expect(e.observe([m('parsing', 100)], 0)).toEqual({ a: null });
    // 100 pages in 10 s → 1,800 to go take 180 s.
    expect(e.observe([m('parsing', 200)], 10_000)).toEqual({ a: 180_000 });
    expect(e.observe([m('ocr', 1, 50)], 11_000)).toEqual({ a: null });
    expect(e.observe([m('ocr', 1, 50)], 12_000)).toEqual({ a: null });
  });

  it('formats seconds, minutes and hours', () => {
    expect(formatTimeLeft(42_000)).toBe('~42 s left');
    expect(formatTimeLeft(180_000)).toBe('~3 min left');
    expect(formatTimeLeft(3_900_000)).toBe('~1 h 5 min left');
  });
});
