/**
 * Choosing the decline policy (lib/answer/decide.ts) from the public question sets: each
 * question's evidence is recorded with a policy that never declines, then the policy that declines
 * the most unanswerable questions while wrongly declining at most WRONG_DECLINE_BUDGET of the
 * answerable ones is picked (a Neyman–Pearson choice: a technician loses more from an answer
 * withheld than the two error rates' sum says, and with ten unanswerable questions a balanced
 * error moved the threshold to where half the answerable questions were declined). Under --cv,
 * each manual's questions are decided by the policy picked on every other manual's questions.
 */
import type { AnswerEvidence, DeclinePolicy } from '../answer/decide';
import { shouldDecline } from '../answer/decide';

export interface DeclineSample {
  manual: string;
  answerable: boolean;
  evidence: AnswerEvidence;
}

/** Never declines on evidence (the writer still declines when it finds no passage at all). */
export const NEVER_DECLINE: DeclinePolicy = { minCoverage: 0, declineOnMissingQuantity: false };

/** The share of answerable questions a policy may decline: issue 15's target for the product. */
const WRONG_DECLINE_BUDGET = 0.08;

const COVERAGE_GRID = Array.from({ length: 17 }, (_, i) => i * 0.05);

export interface DeclineRates {
  /** Share of answerable questions declined. */
  wrong: number;
  /** Share of unanswerable questions answered. */
  missed: number;
}

export function declineRates(samples: readonly DeclineSample[], policy: DeclinePolicy): DeclineRates {
  const answerable = samples.filter((s) => s.answerable);
  const unanswerable = samples.filter((s) => !s.answerable);
  return {
    wrong: answerable.filter((s) => shouldDecline(s.evidence, policy)).length / (answerable.length || 1),
    missed: unanswerable.filter((s) => !shouldDecline(s.evidence, policy)).length / (unanswerable.length || 1),
  };
}

/**
 * The policy that misses the fewest unanswerable questions within the wrong-decline budget; ties
 * go to fewer wrong declines, then to the policy that declines least.
 */
export function chooseDeclinePolicy(samples: readonly DeclineSample[], budget = WRONG_DECLINE_BUDGET): DeclinePolicy {
  let best = NEVER_DECLINE;
  let bestRates = declineRates(samples, best);
  for (const declineOnMissingQuantity of [false, true]) {
    for (const minCoverage of COVERAGE_GRID) {
      const policy = { minCoverage: Math.round(minCoverage * 100) / 100, declineOnMissingQuantity };
      const rates = declineRates(samples, policy);
      if (rates.wrong > budget + 1e-9) continue;
      const better = rates.missed < bestRates.missed - 1e-9 || (Math.abs(rates.missed - bestRates.missed) < 1e-9 && rates.wrong < bestRates.wrong - 1e-9);
      if (better) {
        best = policy;
        bestRates = rates;
      }
    }
  }
  return best;
}

/** Manual → the policy chosen without that manual's questions. */
export function declineFolds(samples: readonly DeclineSample[]): Map<string, DeclinePolicy> {
  const manuals = [...new Set(samples.map((s) => s.manual))];
  return new Map(manuals.map((m) => [m, chooseDeclinePolicy(samples.filter((s) => s.manual !== m))]));
}
