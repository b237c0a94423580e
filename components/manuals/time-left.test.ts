import { describe, expect, it } from 'vitest';
import type { ManualView } from '@/lib/manuals/view';
import { TimeLeftEstimator, formatTimeLeft } from './time-left';

const m = (status: ManualView['status'], progressDone: number, progressTotal = 100, ocrPages = 0) =>
  ({ id: 'a', status, progressDone, progressTotal, pageCount: 100, ocrPages, queuePosition: null }) as ManualView;

describe('time left', () => {
  it('extrapolates the whole manual’s weighted progress, across stages, and never shows less than before', () => {
    const e = new TimeLeftEstimator();
    expect(e.observe([m('parsing', 10)], 0).a.leftMs).toBeNull();
    const later = e.observe([m('parsing', 40)], 10_000).a;
    expect(later.leftMs).not.toBeNull();
    expect(later.leftMs!).toBeGreaterThan(10_000);
    // An OCR page found late makes the estimate of the share of OCR bigger: the bar does not go back.
    const shifted = e.observe([m('parsing', 41, 100, 5)], 11_000).a;
    expect(shifted.percent).toBeGreaterThanOrEqual(later.percent);
    // Queued and finished manuals have no estimate.
    expect(e.observe([m('queued', 0)], 12_000).a).toBeUndefined();
  });

  it('formats seconds, minutes and hours', () => {
    expect(formatTimeLeft(42_000)).toBe('~42 s left');
    expect(formatTimeLeft(180_000)).toBe('~3 min left');
    expect(formatTimeLeft(3_900_000)).toBe('~1 h 5 min left');
  });
});
