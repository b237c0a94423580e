import { describe, expect, it } from 'vitest';
import { chooseDeclinePolicy, declineError, declineFolds, NEVER_DECLINE, type DeclineSample } from './decline-cv';

const sample = (manual: string, answerable: boolean, coverage: number, quantityMissing = false): DeclineSample => ({
  manual,
  answerable,
  evidence: { coverage, quantityMissing },
});

describe('decline policy under cross-validation', () => {
  const samples = [
    sample('a', true, 0.9),
    sample('a', true, 0.6),
    sample('a', false, 0.2),
    sample('b', true, 0.7),
    sample('b', false, 0.65, true),
    sample('c', true, 0.8),
    sample('c', false, 0.1),
  ];

  it('picks the threshold with the lowest balanced error', () => {
    expect(declineError(samples, NEVER_DECLINE)).toBe(1);
    const policy = chooseDeclinePolicy(samples);
    expect(declineError(samples, policy)).toBe(0);
    expect(policy.declineOnMissingQuantity).toBe(true);
    expect(policy.minCoverage).toBeGreaterThan(0.2);
    expect(policy.minCoverage).toBeLessThanOrEqual(0.6);
  });

  it('decides each manual with a policy chosen without its questions', () => {
    const folds = declineFolds(samples);
    expect([...folds.keys()].sort()).toEqual(['a', 'b', 'c']);
    // without b, nothing shows that a missing quantity matters: the least declining policy wins
    expect(folds.get('b')!.declineOnMissingQuantity).toBe(false);
  });
});
