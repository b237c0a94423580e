import { describe, expect, it } from 'vitest';
import { chooseDeclinePolicy, declineFolds, declineRates, NEVER_DECLINE, type DeclineSample } from './decline-cv';

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

  it('picks the threshold that declines the most unanswerable questions within the budget', () => {
    expect(declineRates(samples, NEVER_DECLINE)).toEqual({ wrong: 0, missed: 1 });
    const policy = chooseDeclinePolicy(samples);
    expect(declineRates(samples, policy)).toEqual({ wrong: 0, missed: 0 });
    expect(policy.declineOnMissingQuantity).toBe(true);
    expect(policy.minCoverage).toBeGreaterThan(0.2);
    expect(policy.minCoverage).toBeLessThanOrEqual(0.6);
  });

  it('never declines more answerable questions than the budget allows', () => {
    // Only a threshold of 0.7 would catch the third unanswerable question, at the cost of one answerable in four.
    const hard = [sample('a', true, 0.9), sample('a', true, 0.6), sample('b', true, 0.8), sample('b', true, 0.95), sample('c', false, 0.65), sample('c', false, 0.1)];
    const policy = chooseDeclinePolicy(hard, 0.1);
    expect(declineRates(hard, policy)).toEqual({ wrong: 0, missed: 0.5 });
    expect(declineRates(hard, chooseDeclinePolicy(hard, 0.25))).toEqual({ wrong: 0.25, missed: 0 });
  });

  it('decides each manual with a policy chosen without its questions', () => {
    const folds = declineFolds(samples);
    expect([...folds.keys()].sort()).toEqual(['a', 'b', 'c']);
    // without b, nothing shows that a missing quantity matters: the least declining policy wins
    expect(folds.get('b')!.declineOnMissingQuantity).toBe(false);
  });
});
