import { describe, expect, it } from 'vitest';
import { memoryVerdict } from './memory';

const flatRss = [300, 380, 450, 500, 560, 600];

describe('memoryVerdict', () => {
  it('accepts a heap that climbs while caches fill, then levels off despite one noisy round, with RSS under the ceiling', () => {
    expect(memoryVerdict(flatRss, [87, 130, 154, 160, 157, 250]).stable).toBe(true);
  });

  it('rejects a heap that keeps climbing', () => {
    const verdict = memoryVerdict(flatRss, [100, 180, 260, 340, 420, 500]);
    expect(verdict.stable).toBe(false);
    expect(verdict.reason).toContain('last third 460 MB (+160');
  });

  it('rejects a server over the RSS ceiling even when its heap is flat', () => {
    expect(memoryVerdict([690, 705, 700, 702, 701, 703], [100, 100, 100, 100, 100, 100]).stable).toBe(false);
  });

  it('does not judge a trend from fewer than 6 rounds', () => {
    expect(memoryVerdict([350, 900, null], [100, 400, null]).stable).toBe(true);
  });
});
