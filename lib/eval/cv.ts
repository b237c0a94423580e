/**
 * Training data and cross-validation folds for the page ranker (lib/ranking). A question's
 * training row is its candidate pages with their features, computed with the same legs the
 * hybrid_search tool runs (lib/eval/strategies.ts `rankerInput`), and which candidates are right.
 *
 * Two fold schemes (`--cv-scheme`):
 *   manual  leave one manual out: M's questions are ranked by a model trained on every question
 *           about the other manuals, so by a model that has never seen M — what the next manual meets.
 *   set     leave one question set out: a set's questions are ranked by a model trained on the other
 *           sets. Sets that share a manual are held out together (the held-out set is written over
 *           the dev manuals, so it goes with dev), so no test manual is seen in training either;
 *           a harder transfer, closer to a new library with its own question writer.
 */
import { candidateFeatures, FEATURES } from '../ranking/features';
import type { LibraryIndex } from '../ranking/library-index';
import { train, type LinearModel, type TrainingQuery } from '../ranking/model';
import type { QaItem } from './qa';

export const CV_SCHEMES = ['manual', 'set'] as const;
export type CvScheme = (typeof CV_SCHEMES)[number];

export interface TrainingRow {
  /** The fold the question is held out in (foldKeys). */
  fold: string;
  query: TrainingQuery;
}

/**
 * Question id → its fold: its manual (scheme "manual"), or its question set joined with every
 * set that shares a manual with it (scheme "set"; the joined sets' names, sorted, with "+").
 */
export function foldKeys(questions: ReadonlyArray<Pick<QaItem, 'id' | 'manual'> & { set: string }>, scheme: CvScheme): Map<string, string> {
  if (scheme === 'manual') return new Map(questions.map((q) => [q.id, q.manual]));
  // Union-find over sets: two sets with a manual in common are one fold.
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    const p = parent.get(s) ?? s;
    return p === s ? s : find(p);
  };
  const setOfManual = new Map<string, string>();
  for (const q of questions) {
    if (!parent.has(q.set)) parent.set(q.set, q.set);
    const other = setOfManual.get(q.manual);
    if (other === undefined) setOfManual.set(q.manual, q.set);
    else if (find(other) !== find(q.set)) parent.set(find(q.set), find(other));
  }
  const members = new Map<string, string[]>();
  for (const s of parent.keys()) members.set(find(s), [...(members.get(find(s)) ?? []), s]);
  const name = (s: string) => members.get(find(s))!.sort().join('+');
  return new Map(questions.map((q) => [q.id, name(q.set)]));
}

export function trainingRow(index: LibraryIndex, fold: string, q: QaItem, manualId: string, input: Parameters<typeof candidateFeatures>[1]): TrainingRow {
  const candidates = candidateFeatures(index, input);
  return {
    fold,
    query: {
      candidates: candidates.map((c) => c.features),
      relevant: candidates.map((c) => index.pages[c.page].manualId === manualId && q.pages.includes(index.pages[c.page].number)),
    },
  };
}

export function trainAll(rows: TrainingRow[]): LinearModel {
  return train(FEATURES, rows.map((r) => r.query));
}

/** Fold → the model trained without that fold's questions. */
export function foldModels(rows: TrainingRow[]): Map<string, LinearModel> {
  const folds = [...new Set(rows.map((r) => r.fold))];
  return new Map(folds.map((f) => [f, trainAll(rows.filter((r) => r.fold !== f))]));
}
