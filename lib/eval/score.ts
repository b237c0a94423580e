/** One question's outcome under one strategy → a scored QuestionResult (pure). */
import { firstRelevantRank, judgeRefusal, keywordHit, missingKeywords, rougeL, stripCitations, wrongDeviceAt1, type PageRef } from './metrics';
import { isAnswerable, type QaItem } from './qa';
import type { QuestionResult } from './report';
import type { StrategyOutput } from './strategies';
import type { Variant } from './unnamed';

export interface ScoreOptions {
  /** Retrieval depth: ranks beyond k are misses. */
  k: number;
  /** The manual id the question's file was ingested as (null: not ingested). */
  manualId: string | null;
  /** Manual id → display name (file name) for the `top` list. */
  nameOf: (manualId: string) => string;
  ms: number;
  /** A deeper ranking (diagnostics only) to say how far a missed page was. */
  deepPages?: PageRef[];
  error?: string;
  /** The question set (its qa file) the question came from. */
  set?: string;
  /** The question names a device (lib/ranking/named-device.ts recognises one manual in it). */
  namesDevice?: boolean;
  /** A later turn of a multi-turn session. */
  followUp?: boolean;
  /** The question's reference answer, which a stated answer is scored against (ROUGE-L). */
  reference?: string;
  /** --unnamed: the question as asked names its own device or none. */
  variant?: Variant;
}

export function scoreQuestion(q: QaItem, out: StrategyOutput | null, opts: ScoreOptions): QuestionResult {
  const answerable = isAnswerable(q);
  const pages = out?.pages ?? [];
  const rank = answerable ? firstRelevantRank(pages.slice(0, opts.k), opts.manualId, q.pages) : null;
  const result: QuestionResult = {
    id: q.id,
    manual: q.manual,
    kind: q.kind,
    answerable,
    rank,
    top: pages.slice(0, Math.max(opts.k, 5)).map((p) => `${opts.nameOf(p.manualId)} p.${p.page}`),
    ms: Math.round(opts.ms * 10) / 10,
    ...(opts.set ? { set: opts.set } : {}),
    ...(answerable ? { wrongDevice: wrongDeviceAt1(pages, opts.manualId) } : {}),
    ...(opts.namesDevice !== undefined ? { namesDevice: opts.namesDevice } : {}),
    ...(opts.followUp ? { followUp: true } : {}),
    ...(opts.variant ? { variant: opts.variant } : {}),
  };
  if (answerable && rank === null) {
    result.rankAny = firstRelevantRank(opts.deepPages ?? pages, opts.manualId, q.pages);
  }
  if (out?.answer) {
    const { text, declined, path } = out.answer;
    const refusal = judgeRefusal({ text, declined }, q.question);
    // Replies stored before the forms existed read as `answer`, or `not_covered` when declined.
    const mode = out.answer.mode ?? (out.answer.declined ? 'not_covered' : 'answer');
    result.answer = {
      text,
      declined: refusal.declined,
      keywordHit: answerable ? keywordHit(text, q.answer_keywords) : false,
      missingKeywords: answerable ? missingKeywords(text, q.answer_keywords) : [],
      refused: !answerable && refusal.refused,
      madeUp: refusal.madeUp,
      ...(out.answer.unverifiedValues !== undefined ? { unverifiedValues: out.answer.unverifiedValues } : {}),
      mode,
      ...(answerable && mode === 'answer' && !refusal.declined && opts.reference ? { rougeL: rougeL(stripCitations(text), opts.reference) } : {}),
      ...(out.answer.shownPages ? { shown: out.answer.shownPages.map((p) => `${opts.nameOf(p.manualId)} p.${p.page}`) } : {}),
      ...(answerable && out.answer.shownPages ? { shownRank: firstRelevantRank(out.answer.shownPages, opts.manualId, q.pages) } : {}),
      ...(out.answer.mode === 'answer' && out.answer.evidence?.regions
        ? { evidence: out.answer.evidence.regions.map((g) => ({ manual: opts.nameOf(g.manualId), page: g.page, bbox: g.bbox, kind: g.kind })) }
        : {}),
      ...(out.answer.mode === 'answer' && out.answer.evidence?.structure ? { structure: out.answer.evidence.structure } : {}),
      ...(out.answer.mode === 'answer' && opts.manualId && out.answer.citedManuals?.some((m) => m !== opts.manualId) ? { wrongDeviceStated: true } : {}),
      path,
    };
  }
  if (opts.error) result.error = opts.error;
  return result;
}
