/**
 * Per-question results → the eval report: one metrics object M per strategy overall, by kind and
 * by manual, in the shape docs/eval.md documents for machines (`--json`), and a table for people.
 *
 *   {"strategies": {"<name>": {"overall": M, "by_kind": {"<kind>": M}, "by_manual": {"<file>": M}}}}
 *   M = {"n", "recall@1", "recall@3", "recall@5", "mrr", "keyword_hit_rate", "refusal_rate",
 *        "latency_ms": {"p50", "p95"}, "wrong_device@1", "named": {"n", "wrong_device"},
 *        "followups_unnamed": {"n", "wrong_device", "recall@1", "recall@5", "mrr"}, ...extras}
 * Answering strategies add, among their extras, "rouge_l": {"n", "precision", "recall", "f1"}: the
 * stated answers' ROUGE-L against their questions' reference answers, averaged over the n that have one.
 * wrong_device@1: answerable questions whose rank-1 page is another manual's; named: those that name
 * their device; followups_unnamed: later turns of multi-turn sessions that name no device.
 * A rate is null where it does not apply: retrieval metrics without answerable questions, answer
 * metrics for strategies that do not answer, refusal_rate without unanswerable questions.
 */
import type { ClarifyReport } from './clarify-cv';
import type { AnswerMode, FormPolicy } from '../answer/form';
import type { CurvePoint, FormSample } from './form-cv';
import { hitAtK, latencySummary, mean, reciprocalRank, type RougeScore } from './metrics';
import type { Variant } from './unnamed';

export const STRATEGIES = ['baseline', 'bm25', 'dense', 'hybrid', 'multivector', 'ranker', 'agent'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** Strategies that produce an answer text (scored by keywords and refusals). */
const ANSWERING_STRATEGIES: ReadonlySet<string> = new Set<string>(['agent', 'agent (cv)']);
/** The report name of a strategy run under cross-validation (--cv, either scheme). */
export const cvName = (name: StrategyName) => `${name} (cv)`;
/** Strategies whose ranking depends on the learned model, so --cv runs them per fold. */
export const LEARNED_STRATEGIES: ReadonlySet<StrategyName> = new Set<StrategyName>(['ranker', 'agent']);

interface AnswerResult {
  text: string;
  declined: boolean;
  /** All keywords present (answerable questions). */
  keywordHit: boolean;
  missingKeywords: string[];
  /** Declined without a made-up value (unanswerable questions). */
  refused: boolean;
  madeUp: string[];
  /** Value lock: values in the answer that no cited passage contains. */
  unverifiedValues?: number;
  /** Tools the agent ran, in order. */
  path?: string[];
  /** The form of the reply (lib/answer/form.ts). */
  mode?: AnswerMode;
  /** The closest pages the reply showed, as "file p.N". */
  shown?: string[];
  /** A stated answer's quoted regions (structure units), PDF points from the top-left. */
  evidence?: Array<{ manual: string; page: number; bbox: [number, number, number, number]; kind: string }>;
  /** What a stated answer was read from: a table cell or row, a labelled value, a code, a procedure. */
  structure?: string;
  /** Its answer keywords, found in the text layer of its regions' pages, lie inside its regions (lib/eval/evidence-check.ts). */
  valueInRegion?: boolean;
  /** Answerable questions: 1-based rank of the expected page among the shown pages, null = not shown. */
  shownRank?: number | null;
  /** A stated answer (`answer` form) citing another manual than the question's. */
  wrongDeviceStated?: boolean;
  /** A stated answer to a question with a reference answer: ROUGE-L against it. */
  rougeL?: RougeScore;
}

export interface QuestionResult {
  id: string;
  /** The QA file's manual (file name). */
  manual: string;
  kind: string;
  /** The question set: the qa file's name without "-qa.jsonl". */
  set?: string;
  answerable: boolean;
  /** 1-based rank of the first expected page within the top k, null = missed (or not answerable). */
  rank: number | null;
  /** Rank without the top-k cut (how far the page was), when the strategy saw it at all. */
  rankAny?: number | null;
  /** Top pages as "file p.N". */
  top: string[];
  answer?: AnswerResult;
  ms: number;
  error?: string;
  /** Answerable: the rank-1 page is from another manual than the question's. */
  wrongDevice?: boolean;
  /** The question names a device (lib/ranking/named-device.ts recognises one manual). */
  namesDevice?: boolean;
  /** A later turn of a multi-turn session. */
  followUp?: boolean;
  /**
   * The agent asked "Which device?" and the runner picked the question's own manual:
   * the row holds the answer after the pick (one extra turn).
   */
  clarified?: { choices: string[]; deviceShare?: number };
  /** --unnamed: the question as asked names its own device, or none (lib/eval/unnamed.ts). */
  variant?: Variant;
}

interface Metrics {
  n: number;
  'recall@1': number | null;
  'recall@3': number | null;
  'recall@5': number | null;
  mrr: number | null;
  keyword_hit_rate: number | null;
  refusal_rate: number | null;
  latency_ms: { p50: number | null; p95: number | null };
  n_answerable: number;
  n_unanswerable: number;
  /** Answering strategies: answerable questions the answer declined. */
  false_refusal_rate?: number | null;
  /** Answering strategies: of the answers that declined, the share whose question was unanswerable. */
  decline_precision?: number | null;
  /** Answering strategies: values stated in answers that no cited passage contains (value lock). */
  unverified_values?: number;
  /** Answering strategies: of the answerable questions answered in the `answer` form, the share holding every keyword. */
  stated_precision?: number | null;
  /** Answering strategies: answerable questions answered in the `answer` form. */
  stated_coverage?: number | null;
  /** Answering strategies: unanswerable questions answered in the `answer` form. */
  unanswerable_stated?: number | null;
  /** Answering strategies: of the answerable questions answered in the `pages` form, the share whose expected page is among the (at most 3) shown. */
  'pages_recall@3'?: number | null;
  /** Answering strategies: stated answers that show their page regions (structure units). */
  stated_with_regions?: number | null;
  /** Answering strategies: of the stated answers holding every keyword, whose keywords the regions' text layer has, the share with them inside a region. */
  value_in_region?: number | null;
  /** Answering strategies: stated answers read from a structure unit (a cell, a row, a value, a code, a whole procedure). */
  read_from_structure?: number;
  /** Answering strategies: share of the questions answered with "Which device?" (then picked and answered). */
  clarify_rate?: number | null;
  /** Answering strategies: stated answers citing another manual than the question's. */
  wrong_device_stated?: number;
  /** Answering strategies: answerable questions asked "Which device?" or whose first page is their own device's. */
  right_device_or_clarify?: number | null;
  /** Answering strategies: ROUGE-L against the reference answer, averaged over the stated answers that have one (n). */
  rouge_l?: { n: number; precision: number | null; recall: number | null; f1: number | null };
  errors: number;
  /** Share of the answerable questions whose rank-1 page is from another manual. */
  'wrong_device@1': number | null;
  /** Answerable questions that name their device, and how many of them got another manual's page first. */
  named: { n: number; wrong_device: number };
  /** Answerable later turns of multi-turn sessions that name no device, and how many got another manual's page first. */
  followups_unnamed: { n: number; wrong_device: number; 'recall@1': number | null; 'recall@5': number | null; mrr: number | null };
  [extra: `recall@${number}`]: number | null;
}

interface StrategyReport {
  overall: Metrics;
  by_kind: Record<string, Metrics>;
  by_manual: Record<string, Metrics>;
  /** By question set (qa file). */
  by_set: Record<string, Metrics>;
  /** --unnamed: by variant ("named", "unnamed") overall and per set ("dev/unnamed"). */
  by_variant?: Record<string, Metrics>;
}

export interface EvalReport {
  strategies: Record<string, StrategyReport>;
  /** Per-question detail (extra key): what each strategy retrieved and answered. */
  questions: Record<string, QuestionResult[]>;
  config: Record<string, unknown>;
  /** The form policy (--cv, --train, offline agent): the curve over its grid and the policies chosen. */
  forms?: FormsReport;
  /** `clarify`: asking off beside the cross-validated threshold, the curve and the samples (--cv, --train). */
  clarify?: ClarifyReport;
}

export interface FormsReport {
  /** Precision against coverage over the grid, every question (recorded with the cross-validated ranker under --cv). */
  curve: CurvePoint[];
  /** Chosen on every question: what --train writes to lib/answer/form.json. */
  chosen_all: FormPolicy;
  /** Under --cv: fold (manual, or question sets) → the policy chosen on the other folds' questions. */
  folds?: Record<string, FormPolicy>;
  /** Questions recorded. */
  n: number;
  /** Each recorded question's evidence and whether its quote held every keyword, to study further signals. */
  samples: Array<FormSample & { id: string }>;
}

const round = (x: number | null, digits = 4) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** Scores one group of results of one strategy. `k` is the retrieval depth (ranks beyond k are misses already). */
function summarize(results: readonly QuestionResult[], opts: { k: number; answers: boolean }): Metrics {
  const answerable = results.filter((r) => r.answerable);
  const unanswerable = results.filter((r) => !r.answerable);
  const recall = (k: number) => round(mean(answerable.map((r) => hitAtK(r.rank, k))));
  const m: Metrics = {
    n: results.length,
    'recall@1': recall(1),
    'recall@3': recall(3),
    'recall@5': recall(5),
    mrr: round(mean(answerable.map((r) => reciprocalRank(r.rank)))),
    keyword_hit_rate: opts.answers ? round(mean(answerable.map((r) => r.answer?.keywordHit === true))) : null,
    refusal_rate: opts.answers ? round(mean(unanswerable.map((r) => r.answer?.refused === true))) : null,
    latency_ms: latencySummary(results.filter((r) => !r.error).map((r) => r.ms)),
    n_answerable: answerable.length,
    n_unanswerable: unanswerable.length,
    errors: results.filter((r) => r.error).length,
    'wrong_device@1': round(mean(answerable.map((r) => r.wrongDevice === true))),
    named: { n: answerable.filter((r) => r.namesDevice).length, wrong_device: answerable.filter((r) => r.namesDevice && r.wrongDevice).length },
    followups_unnamed: followUps(answerable.filter((r) => r.followUp && !r.namesDevice)),
  };
  if (![1, 3, 5].includes(opts.k)) m[`recall@${opts.k}`] = recall(opts.k);
  if (opts.answers) {
    m.false_refusal_rate = round(mean(answerable.map((r) => r.answer?.declined === true)));
    // Precision of declining; its recall is refusal_rate.
    m.decline_precision = round(mean(results.filter((r) => r.answer?.declined).map((r) => !r.answerable)));
    m.unverified_values = results.reduce((s, r) => s + (r.answer?.unverifiedValues ?? 0), 0);
    Object.assign(m, formMetrics(results));
  }
  return m;
}

/** Retrieval figures of the follow-ups that name no device: what a user meets in a chat. */
function followUps(rs: readonly QuestionResult[]): Metrics['followups_unnamed'] {
  return {
    n: rs.length,
    wrong_device: rs.filter((r) => r.wrongDevice).length,
    'recall@1': round(mean(rs.map((r) => hitAtK(r.rank, 1)))),
    'recall@5': round(mean(rs.map((r) => hitAtK(r.rank, 5)))),
    mrr: round(mean(rs.map((r) => reciprocalRank(r.rank)))),
  };
}

/** The three forms' figures over one group of an answering strategy's results. */
function formMetrics(results: readonly QuestionResult[]) {
  const answerable = results.filter((r) => r.answerable);
  const stated = answerable.filter((r) => r.answer?.mode === 'answer');
  const paged = answerable.filter((r) => r.answer?.mode === 'pages');
  return {
    stated_precision: round(mean(stated.map((r) => r.answer?.keywordHit === true))),
    stated_coverage: round(mean(answerable.map((r) => r.answer?.mode === 'answer'))),
    unanswerable_stated: round(mean(results.filter((r) => !r.answerable).map((r) => r.answer?.mode === 'answer'))),
    'pages_recall@3': round(mean(paged.map((r) => hitAtK(r.answer?.shownRank ?? null, 3)))),
    clarify_rate: round(mean(results.map((r) => !!r.clarified))),
    right_device_or_clarify: round(mean(answerable.map((r) => !!r.clarified || r.wrongDevice === false))),
    wrong_device_stated: results.filter((r) => r.answer?.wrongDeviceStated).length,
    stated_with_regions: round(mean(stated.map((r) => !!r.answer?.evidence?.length))),
    value_in_region: round(mean(stated.filter((r) => r.answer?.valueInRegion !== undefined).map((r) => r.answer!.valueInRegion === true))),
    read_from_structure: stated.filter((r) => r.answer?.structure).length,
    rouge_l: rougeSummary(stated.flatMap((r) => (r.answer?.rougeL ? [r.answer.rougeL] : []))),
  };
}

function rougeSummary(scores: readonly RougeScore[]): NonNullable<Metrics['rouge_l']> {
  return {
    n: scores.length,
    precision: round(mean(scores.map((s) => s.precision))),
    recall: round(mean(scores.map((s) => s.recall))),
    f1: round(mean(scores.map((s) => s.f1))),
  };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function strategyReport(results: readonly QuestionResult[], opts: { k: number; answers: boolean }): StrategyReport {
  const groups = (key: (r: QuestionResult) => string) =>
    Object.fromEntries([...groupBy(results, key)].sort(([a], [b]) => a.localeCompare(b)).map(([g, rs]) => [g, summarize(rs, opts)]));
  const varied = results.filter((r) => r.variant);
  const byVariant = (key: (r: QuestionResult) => string) =>
    [...groupBy(varied, key)].sort(([a], [b]) => a.localeCompare(b)).map(([g, rs]) => [g, summarize(rs, opts)] as const);
  return {
    overall: summarize(results, opts),
    by_kind: groups((r) => r.kind),
    by_manual: groups((r) => r.manual),
    by_set: groups((r) => r.set ?? ''),
    ...(varied.length ? { by_variant: Object.fromEntries([...byVariant((r) => r.variant!), ...byVariant((r) => `${r.set ?? ''}/${r.variant}`)]) } : {}),
  };
}

export function buildReport(byStrategy: Record<string, QuestionResult[]>, opts: { k: number; config?: Record<string, unknown>; forms?: FormsReport }): EvalReport {
  const strategies: Record<string, StrategyReport> = {};
  for (const [name, results] of Object.entries(byStrategy)) {
    strategies[name] = strategyReport(results, { k: opts.k, answers: ANSWERING_STRATEGIES.has(name) });
  }
  return { strategies, questions: byStrategy, config: opts.config ?? {}, ...(opts.forms ? { forms: opts.forms } : {}) };
}

/** The strategy with the best overall MRR (then R@5, then R@1). */
export function bestStrategy(report: Pick<EvalReport, 'strategies'>): string | null {
  const names = Object.keys(report.strategies).filter((s) => report.strategies[s].overall.mrr !== null);
  const key = (s: string) => {
    const o = report.strategies[s].overall;
    return [o.mrr ?? 0, o['recall@5'] ?? 0, o['recall@1'] ?? 0];
  };
  names.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return 0;
  });
  return names[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Text output

const fmt = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '—' : x.toFixed(digits));
const fmtMs = (x: number | null) => (x === null ? '—' : x >= 100 ? String(Math.round(x)) : x.toFixed(1));

const COLUMNS = ['strategy', 'group', 'n', 'R@1', 'R@3', 'R@5', 'MRR', 'wrong dev@1', 'named wrong', 'follow-up wrong', 'kw hit', 'refusal', 'decl prec', 'wrong decl', 'unverif', 'p50 ms', 'p95 ms'];

function row(strategy: string, group: string, m: Metrics): string[] {
  return [
    strategy,
    group,
    String(m.n),
    fmt(m['recall@1']),
    fmt(m['recall@3']),
    fmt(m['recall@5']),
    fmt(m.mrr),
    fmt(m['wrong_device@1']),
    m.named ? `${m.named.wrong_device}/${m.named.n}` : '—',
    m.followups_unnamed?.n ? `${m.followups_unnamed.wrong_device}/${m.followups_unnamed.n}` : '—',
    fmt(m.keyword_hit_rate),
    fmt(m.refusal_rate),
    fmt(m.decline_precision),
    fmt(m.false_refusal_rate),
    m.unverified_values === undefined ? '—' : String(m.unverified_values),
    fmtMs(m.latency_ms.p50),
    fmtMs(m.latency_ms.p95),
  ];
}

/** A fixed-width table (also valid GitHub markdown when `markdown` is set). */
export function renderTable(rows: string[][], markdown = false): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    markdown ? `| ${r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |` : r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  const sep = markdown ? `|${widths.map((w, c) => (c < 2 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(Math.max(1, w - 1))}: `)).join('|')}|` : widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]), sep, ...rows.slice(1).map(line)].join('\n');
}

type TableScope = 'overall' | 'kind' | 'manual' | 'set';

/** Rows for every strategy: overall, then (optionally) by kind and by manual. */
function reportRows(report: Pick<EvalReport, 'strategies'>, scopes: readonly TableScope[] = ['overall', 'kind', 'manual']): string[][] {
  const rows: string[][] = [COLUMNS];
  for (const scope of scopes) {
    for (const [name, s] of Object.entries(report.strategies)) {
      if (scope === 'overall') rows.push(row(name, 'overall', s.overall));
      if (scope === 'kind') for (const [g, m] of Object.entries(s.by_kind)) rows.push(row(name, `kind:${g}`, m));
      if (scope === 'manual') for (const [g, m] of Object.entries(s.by_manual)) rows.push(row(name, g, m));
      if (scope === 'set') for (const [g, m] of Object.entries(s.by_set ?? {})) rows.push(row(name, `set:${g}`, m));
    }
  }
  return rows;
}

/** Misses of a strategy: answerable questions not found in the top 5 (with how far they were). */
export function missesAt5(results: readonly QuestionResult[]): Array<{ id: string; kind: string; manual: string; rank: number | null; top: string[] }> {
  return results
    .filter((r) => r.answerable && !hitAtK(r.rank, 5))
    .map((r) => ({ id: r.id, kind: r.kind, manual: r.manual, rank: r.rankAny ?? r.rank, top: r.top.slice(0, 3) }));
}

const FORM_COLUMNS = ['strategy', 'group', 'n', 'stated prec', 'stated cov', 'unans stated', 'pages R@3', 'ranker R@3', 'ROUGE-L P', 'ROUGE-L R', 'ROUGE-L F1', 'ROUGE-L n'];

/** The three forms' figures per strategy, overall and per question set, with the stated answers' ROUGE-L. */
export function formsTable(report: Pick<EvalReport, 'strategies'>, markdown = false): string {
  const rows: string[][] = [FORM_COLUMNS];
  for (const [name, s] of Object.entries(report.strategies)) {
    if (s.overall.stated_coverage === undefined) continue;
    for (const [g, m] of [['overall', s.overall] as const, ...Object.entries(s.by_set ?? {}).map(([g, m]) => [`set:${g}`, m] as const)])
      rows.push([
        name,
        g,
        String(m.n),
        fmt(m.stated_precision),
        fmt(m.stated_coverage),
        fmt(m.unanswerable_stated),
        fmt(m['pages_recall@3']),
        fmt(m['recall@3']),
        fmt(m.rouge_l?.precision),
        fmt(m.rouge_l?.recall),
        fmt(m.rouge_l?.f1),
        String(m.rouge_l?.n ?? 0),
      ]);
  }
  return renderTable(rows, markdown);
}

const VARIANT_COLUMNS = ['strategy', 'group', 'n', 'R@1', 'wrong dev@1', 'stated from another', 'clarify rate', 'right dev or clarify'];

/** --unnamed: the answering strategies' device figures, named and unnamed, overall and per set. */
function variantsTable(report: Pick<EvalReport, 'strategies'>, markdown = false): string | undefined {
  const rows: string[][] = [VARIANT_COLUMNS];
  for (const [name, s] of Object.entries(report.strategies)) {
    if (s.overall.stated_coverage === undefined) continue;
    for (const [g, m] of Object.entries(s.by_variant ?? {}))
      rows.push([name, g, String(m.n), fmt(m['recall@1']), fmt(m['wrong_device@1']), String(m.wrong_device_stated ?? 0), fmt(m.clarify_rate), fmt(m.right_device_or_clarify)]);
  }
  return rows.length > 1 ? renderTable(rows, markdown) : undefined;
}

/** The precision / coverage curve over the form policy's grid. */
function curveTable(curve: readonly CurvePoint[], markdown = false): string {
  const rows = [['quantity rule', 'min coverage', 'stated prec', 'stated cov', 'unans stated']];
  for (const p of curve) rows.push([p.requireAskedQuantity ? 'on' : 'off', p.minCoverage.toFixed(2), fmt(p.precision), fmt(p.coverage), fmt(p.unanswerable_stated)]);
  return renderTable(rows, markdown);
}

export function renderText(report: EvalReport): string {
  const out: string[] = [];
  out.push(renderTable(reportRows(report, ['overall'])), '');
  out.push(renderTable(reportRows(report, ['kind'])), '');
  out.push(renderTable(reportRows(report, ['manual'])), '');
  out.push(renderTable(reportRows(report, ['set'])), '');
  out.push(formsTable(report), '');
  const variants = variantsTable(report);
  if (variants) out.push(variants, '');
  if (report.forms) out.push(`form policy: chosen on all ${report.forms.n} questions ${JSON.stringify(report.forms.chosen_all)}`, curveTable(report.forms.curve), '');
  for (const [name, results] of Object.entries(report.questions)) {
    const misses = missesAt5(results);
    out.push(`${name}: missed at R@5 (${misses.length}): ${misses.map((m) => `${m.id}(${m.rank === null ? 'not found' : `rank ${m.rank}`})`).join(' ') || 'none'}`);
    const errors = results.filter((r) => r.error);
    if (errors.length) out.push(`${name}: errors: ${errors.map((r) => `${r.id}: ${r.error}`).join('; ')}`);
  }
  for (const [name, results] of Object.entries(report.questions)) {
    if (!ANSWERING_STRATEGIES.has(name)) continue;
    out.push('', `${name} answers:`);
    for (const r of results) {
      if (!r.answer) continue;
      const verdict = r.answerable
        ? r.answer.keywordHit
          ? 'hit'
          : `miss (missing ${r.answer.missingKeywords.map((k) => JSON.stringify(k)).join(', ')}${r.answer.declined ? ', declined' : ''})`
        : r.answer.refused
          ? 'refused ✓'
          : `NOT refused${r.answer.madeUp.length ? ` (made-up values ${r.answer.madeUp.join(', ')})` : ''}`;
      out.push(`  ${r.id} [${r.kind}] ${verdict} — ${oneLine(r.answer.text, 160)}`);
    }
  }
  return out.join('\n');
}

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
