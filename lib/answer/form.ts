/**
 * The form of a reply, decided once from general evidence signals the writer computes:
 *   - `not_covered`: the question names a device, model or variant no ready manual covers, or its
 *     manual is still processing (./applicability.ts), or nothing at all was retrieved;
 *   - `answer`: a passage was quoted, it is about the asked device, and its evidence clears the
 *     policy: the question's words are covered (coverage ≥ minCoverage, ./decide.ts) and, when the
 *     question asks for a quantity of a kind (volts, hertz …), the quoted span states one
 *     (requireAskedQuantity);
 *   - `pages`: otherwise — the evidence does not hold the asked thing clearly, so the reply says so
 *     in one sentence and shows the closest pages instead of a paragraph that looks like an answer.
 * The two parameters are chosen by `npm run eval -- --train` under leave-one-manual-out cross-
 * validation over the public question sets (lib/eval/form-cv.ts) and ship in ./form.json.
 */
import type { AnswerEvidence } from './decide';
import shipped from './form.json';

/** `clarify` ("Which device?") is decided before these three, by ./clarify.ts. */
export type AnswerMode = 'answer' | 'pages' | 'not_covered' | 'clarify';

export interface FormPolicy {
  /** Below this coverage of the question by the quoted span, show pages; 0 turns it off. */
  minCoverage: number;
  /** Show pages when the question asks for a kind of quantity the quoted span does not state. */
  requireAskedQuantity: boolean;
}

export interface FormSignals {
  /** A named device / variant no ready manual covers, or its manual still processing. */
  notCovered: boolean;
  /** The evidence of the span the writer would quote; null when it found nothing to quote. */
  evidence: AnswerEvidence | null;
  /** The quoted span is about another device than the one the question names. */
  otherDevice: boolean;
  /** How many pages were retrieved (the closest pages the `pages` form can show). */
  pages: number;
}

/** The policy chosen on every public question set; a turn passes its own (AgentServices.policies). */
export const SHIPPED_FORM_POLICY: FormPolicy = shipped;

/** Whether the quoted span's evidence clears the policy. */
function evidenceHolds(e: AnswerEvidence, policy: FormPolicy = SHIPPED_FORM_POLICY): boolean {
  return e.coverage >= policy.minCoverage && !(policy.requireAskedQuantity && e.quantityMissing);
}

/** The one decision between the three forms. */
export function answerForm(s: FormSignals, policy: FormPolicy = SHIPPED_FORM_POLICY): AnswerMode {
  if (s.notCovered) return 'not_covered';
  if (s.evidence && !s.otherDevice && evidenceHolds(s.evidence, policy)) return 'answer';
  return s.pages > 0 ? 'pages' : 'not_covered';
}
