import { describe, expect, it } from 'vitest';
import { memoryVerdict } from './memory';

describe('memoryVerdict', () => {
  it('accepts RSS that climbs while caches fill, then levels off', () => {
    expect(memoryVerdict([350, 420, 470, 480, 490, 495]).stable).toBe(true);
  });

  it('rejects RSS that keeps climbing at the same rate', () => {
    const verdict = memoryVerdict([350, 420, 490, 560, 630, 700]);
    expect(verdict.stable).toBe(false);
    expect(verdict.reason).toContain('second half +210 MB');
  });

  it('rejects a server over the ceiling even when flat', () => {
    expect(memoryVerdict([720, 730, 730, 735]).stable).toBe(false);
  });

  it('does not judge a trend from fewer than 4 rounds', () => {
    expect(memoryVerdict([350, 900, null]).stable).toBe(true);
  });
});
