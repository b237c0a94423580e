/**
 * The "no clear margin" threshold of the `clarify` form (lib/answer/clarify.ts), chosen
 * under cross-validation. Each question is recorded twice with the ranker of its fold: once with
 * asking off (its pages, its stated answer, and the top device's share of its closest pages) and,
 * when the turn had no device and the pages came from several devices, once more with its own
 * manual picked (what the runner does after a clarify). Any threshold τ can then be replayed:
 * a question whose share is below τ asks, and counts with its picked outcome.
 *
 * Choice on the training folds: at most MAX_CLARIFY_RATE of the questions that could ask (no device
 * in the turn, pages from several devices: the unnamed ones) asked; among those τ,
 * the fewest wrong-device outcomes (another manual's page first, plus stated answers citing another
 * manual), then the best R@1, then the smallest τ (the fewest questions asked).
 */
import type { ClarifyPolicy } from '../answer/clarify';

export interface ClarifyOutcome {
  /** 1-based rank of the expected page, null = missed (answerable questions). */
  rank: number | null;
  wrongFirst: boolean;
  wrongStated: boolean;
}

export interface ClarifySample {
  id: string;
  fold: string;
  set: string;
  answerable: boolean;
  /** The top device's share; undefined when the turn had a device or the library one device (never asks). */
  share?: number;
  open: ClarifyOutcome;
  /** After picking the question's own manual (recorded when share < 1). */
  picked?: ClarifyOutcome;
}

/** The bound on asking: at most 30 % of the questions naming no device. */
const MAX_CLARIFY_RATE = 0.3;
const CLARIFY_GRID: readonly number[] = [0, ...Array.from({ length: 14 }, (_, i) => Math.round((0.35 + i * 0.05) * 100) / 100)];

const asks = (s: ClarifySample, t: number) => s.share !== undefined && s.share < t && !!s.picked;
const outcome = (s: ClarifySample, t: number) => (asks(s, t) ? s.picked! : s.open);

export interface ClarifyFigures {
  n: number;
  clarify_rate: number;
  /** Asked among the questions that could ask (share recorded): named ones never do. */
  clarify_rate_open: number;
  'wrong_device@1': number;
  wrong_device_stated: number;
  /** Answerable questions: R@1 of the row as the runner scores it (after the pick when asked). */
  'recall@1': number | null;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The figures of a group of samples, each asked or not by its own threshold. */
export function clarifyFigures(samples: readonly ClarifySample[], thresholdOf: (s: ClarifySample) => number): ClarifyFigures {
  const answerable = samples.filter((s) => s.answerable);
  return {
    n: samples.length,
    clarify_rate: round(samples.filter((s) => asks(s, thresholdOf(s))).length / (samples.length || 1)),
    clarify_rate_open: round(samples.filter((s) => asks(s, thresholdOf(s))).length / (samples.filter((s) => s.share !== undefined).length || 1)),
    'wrong_device@1': answerable.filter((s) => outcome(s, thresholdOf(s)).wrongFirst).length,
    wrong_device_stated: samples.filter((s) => outcome(s, thresholdOf(s)).wrongStated).length,
    'recall@1': answerable.length ? round(answerable.filter((s) => outcome(s, thresholdOf(s)).rank === 1).length / answerable.length) : null,
  };
}

/** The threshold chosen on these samples (see the header). */
export function chooseClarifyPolicy(samples: readonly ClarifySample[]): ClarifyPolicy {
  let best: { t: number; wrong: number; r1: number } | undefined;
  for (const t of CLARIFY_GRID) {
    const f = clarifyFigures(samples, () => t);
    if (f.clarify_rate_open > MAX_CLARIFY_RATE) continue;
    const wrong = f['wrong_device@1'] + f.wrong_device_stated;
    const r1 = f['recall@1'] ?? 0;
    if (!best || wrong < best.wrong || (wrong === best.wrong && r1 > best.r1)) best = { t, wrong, r1 };
  }
  return { maxTopShare: best?.t ?? 0 };
}

/** Fold → the policy chosen without that fold's questions. */
function clarifyFolds(samples: readonly ClarifySample[]): Map<string, ClarifyPolicy> {
  const folds = [...new Set(samples.map((s) => s.fold))];
  return new Map(folds.map((f) => [f, chooseClarifyPolicy(samples.filter((s) => s.fold !== f))]));
}

export interface ClarifyReport {
  /** Every question with asking off (the baseline of the same run) and with its fold's threshold. */
  never: Record<string, ClarifyFigures>;
  cv: Record<string, ClarifyFigures>;
  chosen_all: ClarifyPolicy;
  folds: Record<string, ClarifyPolicy>;
  curve: Array<{ maxTopShare: number } & ClarifyFigures>;
  samples: ClarifySample[];
}

/** Overall and per set: asking off beside the cross-validated thresholds. */
export function clarifyReport(samples: ClarifySample[]): ClarifyReport {
  const folds = clarifyFolds(samples);
  const sets = ['overall', ...[...new Set(samples.map((s) => s.set))].sort()];
  const group = (set: string) => (set === 'overall' ? samples : samples.filter((s) => s.set === set));
  return {
    never: Object.fromEntries(sets.map((g) => [g, clarifyFigures(group(g), () => 0)])),
    cv: Object.fromEntries(sets.map((g) => [g, clarifyFigures(group(g), (s) => folds.get(s.fold)!.maxTopShare)])),
    chosen_all: chooseClarifyPolicy(samples),
    folds: Object.fromEntries(folds),
    curve: CLARIFY_GRID.map((t) => ({ maxTopShare: t, ...clarifyFigures(samples, () => t) })),
    samples,
  };
}
