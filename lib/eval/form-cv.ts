/**
 * Choosing the form policy (lib/answer/form.ts) from the public question sets. Each question's
 * reply is recorded once with a policy that always quotes when it can (NEVER_WITHHOLD): its
 * evidence, whether the quote holds every answer keyword, and the form it takes whatever the
 * policy (not covered, or nothing to quote). Any policy's figures then follow without re-running:
 *   - stated precision: of the answerable questions it quotes for, the share whose quote holds
 *     every keyword; stated coverage: the share of answerable questions it quotes for;
 *   - unanswerable stated: the share of unanswerable questions it quotes for.
 * The rule: the policy with the highest coverage whose precision is ≥ MIN_PRECISION; if none
 * reaches it, the most precise policy with coverage ≥ MIN_COVERAGE; if none, the most precise.
 * Under --cv each fold's questions (a manual's, or a question set's: lib/eval/cv.ts) get the policy
 * chosen on every other fold's questions.
 */
import type { AnswerEvidence } from '../answer/decide';
import { answerForm, type AnswerMode, type FormPolicy } from '../answer/form';

export interface FormSample {
  /** The cross-validation fold the question is held out in (lib/eval/cv.ts foldKeys). */
  fold: string;
  answerable: boolean;
  /** The evidence of the span the writer quoted; null when it quoted nothing (`fixed` is set). */
  evidence: AnswerEvidence | null;
  /** The form whatever the policy: the writer found nothing to quote, or the device is not covered. */
  fixed?: Exclude<AnswerMode, 'answer'>;
  /** The quote holds every answer keyword (answerable questions). */
  keywordHit: boolean;
}

/** Quotes whenever the writer finds a span (the recording policy). */
export const NEVER_WITHHOLD: FormPolicy = { minCoverage: 0, requireAskedQuantity: false };

const MIN_PRECISION = 0.85;
const MIN_COVERAGE = 0.4;

/** The grid, fixed before any figure was seen: coverage thresholds 0 … 0.8 by 0.05, with and without the quantity rule. */
export const FORM_GRID: FormPolicy[] = [false, true].flatMap((requireAskedQuantity) =>
  Array.from({ length: 17 }, (_, i) => ({ minCoverage: Math.round(i * 5) / 100, requireAskedQuantity })),
);

export interface FormRates {
  /** null when the policy quotes for no answerable question. */
  precision: number | null;
  coverage: number;
  unanswerableStated: number;
}

function sampleMode(s: FormSample, policy: FormPolicy): AnswerMode {
  return s.fixed ?? answerForm({ notCovered: false, evidence: s.evidence, otherDevice: false, pages: 1 }, policy);
}

export function formRates(samples: readonly FormSample[], policy: FormPolicy): FormRates {
  const answerable = samples.filter((s) => s.answerable);
  const unanswerable = samples.filter((s) => !s.answerable);
  const stated = answerable.filter((s) => sampleMode(s, policy) === 'answer');
  return {
    precision: stated.length ? stated.filter((s) => s.keywordHit).length / stated.length : null,
    coverage: stated.length / (answerable.length || 1),
    unanswerableStated: unanswerable.filter((s) => sampleMode(s, policy) === 'answer').length / (unanswerable.length || 1),
  };
}

const EPS = 1e-9;

/** The rule above; ties go to fewer unanswerable questions stated, then to the earlier (simpler) grid point. */
export function chooseFormPolicy(samples: readonly FormSample[]): FormPolicy {
  const scored = FORM_GRID.map((policy) => ({ policy, r: formRates(samples, policy) }));
  const prec = (r: FormRates) => r.precision ?? 0;
  const pick = (pool: typeof scored, primary: (r: FormRates) => number, secondary: (r: FormRates) => number) =>
    pool.reduce((best, c) => {
      const d1 = primary(c.r) - primary(best.r);
      if (d1 > EPS) return c;
      if (d1 < -EPS) return best;
      const d2 = secondary(c.r) - secondary(best.r);
      if (d2 > EPS) return c;
      if (d2 < -EPS) return best;
      return c.r.unanswerableStated < best.r.unanswerableStated - EPS ? c : best;
    }).policy;
  const precise = scored.filter((c) => c.r.precision !== null && c.r.precision >= MIN_PRECISION - EPS);
  if (precise.length) return pick(precise, (r) => r.coverage, prec);
  const covering = scored.filter((c) => c.r.coverage >= MIN_COVERAGE - EPS);
  return pick(covering.length ? covering : scored, prec, (r) => r.coverage);
}

/** Fold → the policy chosen without that fold's questions. */
export function formFolds(samples: readonly FormSample[]): Map<string, FormPolicy> {
  const folds = [...new Set(samples.map((s) => s.fold))];
  return new Map(folds.map((f) => [f, chooseFormPolicy(samples.filter((s) => s.fold !== f))]));
}

export interface CurvePoint extends FormPolicy {
  precision: number | null;
  coverage: number;
  unanswerable_stated: number;
}

/** Precision against coverage over the grid (each point one fixed policy over every question). */
export function formCurve(samples: readonly FormSample[]): CurvePoint[] {
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  return FORM_GRID.map((policy) => {
    const r = formRates(samples, policy);
    return { ...policy, precision: r.precision === null ? null : r4(r.precision), coverage: r4(r.coverage), unanswerable_stated: r4(r.unanswerableStated) };
  });
}
