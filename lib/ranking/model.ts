/**
 * The learned combination of the ranking signals: a linear scorer trained as a pairwise logistic
 * regression (RankNet with a linear model): for each question, every (right page, wrong page)
 * pair among its candidates should score right > wrong. Each question weighs the same however
 * many pairs it has. Trained by `npm run eval -- --train` under leave-one-manual-out
 * cross-validation (lib/eval/cv.ts); the weights of a model trained on every public question set
 * ship in ./weights.json.
 *
 * Not tuned on the questions: L2 = 1e-3 (a light prior toward 0, fixed a priori); 2,000 epochs of
 * full-batch gradient descent at step 2, chosen so training converges (300 epochs at step 0.5
 * stopped short: every weight still near its start; 10× the L2 scored lower under CV).
 */
export interface TrainingQuery {
  /** Feature vectors of the candidates. */
  candidates: Float64Array[];
  /** Which candidates are right pages. */
  relevant: boolean[];
}

export interface LinearModel {
  features: readonly string[];
  weights: number[];
}

const L2 = 1e-3;
const EPOCHS = 2000;
const STEP = 2;

const dot = (w: ArrayLike<number>, x: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += w[i] * x[i];
  return s;
};

export function score(model: LinearModel, x: ArrayLike<number>): number {
  return dot(model.weights, x);
}

/** Trains the pairwise model; questions without both a right and a wrong candidate are skipped. */
export function train(features: readonly string[], queries: TrainingQuery[]): LinearModel {
  const d = features.length;
  const w = new Float64Array(d);
  const usable = queries
    .map((q) => ({
      pos: q.candidates.filter((_, i) => q.relevant[i]),
      neg: q.candidates.filter((_, i) => !q.relevant[i]),
    }))
    .filter((q) => q.pos.length > 0 && q.neg.length > 0);
  if (usable.length === 0) return { features, weights: [...w] };
  const grad = new Float64Array(d);
  const diff = new Float64Array(d);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    grad.fill(0);
    for (const q of usable) {
      const pairs = q.pos.length * q.neg.length;
      for (const p of q.pos) {
        for (const n of q.neg) {
          for (let i = 0; i < d; i++) diff[i] = p[i] - n[i];
          // d/dw of log(1 + exp(-w·diff)) = -diff · σ(-w·diff)
          const g = 1 / (1 + Math.exp(dot(w, diff)));
          for (let i = 0; i < d; i++) grad[i] -= (diff[i] * g) / pairs;
        }
      }
    }
    for (let i = 0; i < d; i++) w[i] -= STEP * (grad[i] / usable.length + L2 * w[i]);
  }
  return { features, weights: [...w].map((v) => Math.round(v * 1e4) / 1e4) };
}
