import { describe, expect, it } from 'vitest';
import { memoryVerdict } from './memory';

describe('memoryVerdict', () => {
  it('accepts RSS that climbs while caches fill, then levels off despite one noisy round', () => {
    expect(memoryVerdict([297, 383, 454, 460, 457, 588]).stable).toBe(true);
  });

  it('rejects RSS that keeps climbing', () => {
    const verdict = memoryVerdict([300, 380, 460, 540, 620, 690]);
    expect(verdict.stable).toBe(false);
    expect(verdict.reason).toContain('last third 655 MB (+155');
  });

  it('rejects a server over the ceiling even when flat', () => {
    expect(memoryVerdict([690, 705, 700, 702, 701, 703]).stable).toBe(false);
  });

  it('does not judge a trend from fewer than 6 rounds', () => {
    expect(memoryVerdict([350, 900, null]).stable).toBe(true);
  });
});
