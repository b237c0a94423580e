/** One question's training data for the page ranker (./model.ts, ./trees.ts). */
export interface TrainingQuery {
  /** Feature vectors of the candidates. */
  candidates: Float64Array[];
  /** Which candidates are right pages. */
  relevant: boolean[];
}

/** A question teaches the ranker something only with both a right and a wrong candidate. */
export const hasRightAndWrong = (q: TrainingQuery): boolean => q.relevant.some(Boolean) && q.relevant.some((r) => !r);
