import { describe, expect, it } from 'vitest';
import { passageCoverage } from './coverage';

describe('passageCoverage', () => {
  const passages = ['The battery capacity is 400 mAh.', 'Charging current is at most 0.8 A.', 'The case is ABS plastic.'];

  it('is high when a passage answers the question', () => {
    expect(passageCoverage('What is the battery capacity?', passages).coverage).toBeGreaterThan(0.7);
  });

  it('is low when the question names something no passage has, and names it', () => {
    const warranty = passageCoverage('What is the warranty period?', [...passages, 'The sampling period is 10 ms.']);
    expect(warranty.coverage).toBeLessThan(0.5);
    expect(warranty.missing).toEqual(['warranti']);
    expect(warranty.top).toEqual([3]);
  });
});
