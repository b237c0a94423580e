/** One question's training data for the page ranker (./model.ts, ./trees.ts). */
export interface TrainingQuery {
  /** Feature vectors of the candidates. */
  candidates: Float64Array[];
  /** Which candidates are right pages. */
  relevant: boolean[];
}
