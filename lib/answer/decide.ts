/**
 * Calibrated declining: whether the evidence an offline answer found is enough to answer, or the
 * honest reply is "the manuals do not say". Decided from measured evidence, not from the wording
 * of particular questions:
 *   - coverage: the weighted share of the question's words the answer's passages (with their
 *     headings and table headers) contain;
 *   - quantityMissing: the question asks for a quantity of a kind (volts, hertz, newton-metres)
 *     and no passage on the answer's best pages states a value of that kind.
 * The thresholds are chosen by `npm run eval -- --train` under leave-one-manual-out cross-
 * validation over the public question sets (lib/eval/decline-cv.ts) and ship in ./decline.json.
 */
import shipped from './decline.json';

export interface AnswerEvidence {
  coverage: number;
  quantityMissing: boolean;
}

export interface DeclinePolicy {
  /** Decline below this coverage of the question. */
  minCoverage: number;
  /** Decline when an asked quantity is stated nowhere on the best pages. */
  declineOnMissingQuantity: boolean;
}

export const NO_EVIDENCE: AnswerEvidence = { coverage: 0, quantityMissing: true };

let current: DeclinePolicy = shipped;

/** The policy in use. */
export function declinePolicy(): DeclinePolicy {
  return current;
}

/** Uses this policy from now on (the eval after --train has rewritten decline.json). */
export function setDeclinePolicy(policy: DeclinePolicy): void {
  current = policy;
}

/** Runs `fn` with another policy (the eval's cross-validation folds). */
export async function withDeclinePolicy<T>(policy: DeclinePolicy, fn: () => Promise<T>): Promise<T> {
  const before = current;
  current = policy;
  try {
    return await fn();
  } finally {
    current = before;
  }
}

export function shouldDecline(e: AnswerEvidence, policy: DeclinePolicy = current): boolean {
  return e.coverage < policy.minCoverage || (policy.declineOnMissingQuantity && e.quantityMissing);
}
