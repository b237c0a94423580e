/**
 * Training data and leave-one-manual-out folds for the page ranker (lib/ranking). A question's
 * training row is its candidate pages with their features, computed with the same legs the
 * hybrid_search tool runs (lib/eval/strategies.ts `rankerInput`), and which candidates are right.
 * For the fold of manual M, the model is trained on every question about the other manuals, so
 * M's questions are ranked by a model that has never seen M — what the next manual will meet.
 */
import { candidateFeatures, FEATURES } from '../ranking/features';
import type { LibraryIndex } from '../ranking/library-index';
import { train, type LinearModel, type TrainingQuery } from '../ranking/model';
import type { QaItem } from './qa';

export interface TrainingRow {
  manual: string;
  query: TrainingQuery;
}

export function trainingRow(index: LibraryIndex, q: QaItem, manualId: string, input: Parameters<typeof candidateFeatures>[1]): TrainingRow {
  const candidates = candidateFeatures(index, input);
  return {
    manual: q.manual,
    query: {
      candidates: candidates.map((c) => c.features),
      relevant: candidates.map((c) => index.pages[c.page].manualId === manualId && q.pages.includes(index.pages[c.page].number)),
    },
  };
}

export function trainAll(rows: TrainingRow[]): LinearModel {
  return train(FEATURES, rows.map((r) => r.query));
}

/** Manual file → the model trained without that manual's questions. */
export function foldModels(rows: TrainingRow[]): Map<string, LinearModel> {
  const manuals = [...new Set(rows.map((r) => r.manual))];
  return new Map(manuals.map((m) => [m, trainAll(rows.filter((r) => r.manual !== m))]));
}
