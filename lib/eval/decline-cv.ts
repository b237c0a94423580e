/**
 * Choosing the decline policy (lib/answer/decline.ts) from the public question sets: each
 * question's evidence is recorded with a policy that never declines, then the policy that makes
 * the fewest mistakes is picked — balanced between the two kinds (an unanswerable question
 * answered, an answerable one declined; each kind's rate counts the same however few
 * unanswerable questions there are). Under --cv, each manual's questions are decided by the policy
 * picked on every other manual's questions.
 */
import type { AnswerEvidence, DeclinePolicy } from '../answer/decline';
import { shouldDecline } from '../answer/decline';

export interface DeclineSample {
  manual: string;
  answerable: boolean;
  evidence: AnswerEvidence;
}

/** Never declines on evidence (the writer still declines when it finds no passage at all). */
export const NEVER_DECLINE: DeclinePolicy = { minCoverage: 0, declineOnMissingQuantity: false };

const COVERAGE_GRID = Array.from({ length: 17 }, (_, i) => i * 0.05);

export function declineError(samples: readonly DeclineSample[], policy: DeclinePolicy): number {
  const answerable = samples.filter((s) => s.answerable);
  const unanswerable = samples.filter((s) => !s.answerable);
  const wrong = answerable.filter((s) => shouldDecline(s.evidence, policy)).length / (answerable.length || 1);
  const missed = unanswerable.filter((s) => !shouldDecline(s.evidence, policy)).length / (unanswerable.length || 1);
  return wrong + missed;
}

/** The policy with the lowest balanced error; ties go to the one that declines least. */
export function chooseDeclinePolicy(samples: readonly DeclineSample[]): DeclinePolicy {
  let best = NEVER_DECLINE;
  let bestError = declineError(samples, best);
  for (const declineOnMissingQuantity of [false, true]) {
    for (const minCoverage of COVERAGE_GRID) {
      const policy = { minCoverage: Math.round(minCoverage * 100) / 100, declineOnMissingQuantity };
      const error = declineError(samples, policy);
      if (error < bestError - 1e-9) {
        best = policy;
        bestError = error;
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
