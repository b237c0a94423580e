/**
 * The learned combination of the ranking signals: a linear scorer trained listwise (ListNet's
 * top-one softmax cross-entropy): for each question, the softmax over its candidates should put
 * its probability on the right pages. Each question weighs the same however many candidates it
 * has. (The pairwise RankNet form it replaced scored R@1 0.57 vs 0.58 under the same CV, 0.57 vs
 * 0.61 with the sparsity features; docs/eval.md.) Trained by `npm run eval -- --train` under leave-one-manual-out
 * cross-validation (lib/eval/cv.ts); the weights of a model trained on every public question set
 * ship in ./weights.json.
 *
 * Boosted trees (./trees.ts) then fit what the linear score gets wrong on the training questions.
 *
 * L2 = 1e-3 (a light prior toward 0) was chosen under cross-validation over 10× that (docs/eval.md);
 * 2,000 epochs of full-batch gradient descent at step 2 were chosen so training converges, not for
 * their scores.
 */
import { hasRightAndWrong, type TrainingQuery } from './training';
import { boost, treesScore, type Tree } from './trees';

export type { TrainingQuery };

export interface LinearModel {
  features: readonly string[];
  weights: number[];
  /** Boosted trees added to the linear score (./trees.ts), when trained with them. */
  trees?: Tree[];
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
  const linear = dot(model.weights, x);
  return model.trees?.length ? linear + treesScore(model.trees, x) : linear;
}

/**
 * Trains the listwise model; questions without both a right and a wrong candidate are skipped.
 * Loss per question: cross-entropy between the softmax of the candidates' scores and the uniform
 * distribution over its right pages (ListNet, top-one form) — it rewards putting a right page
 * FIRST, where the pairwise form weighed every wrong page below a right one the same.
 */
export function train(features: readonly string[], queries: TrainingQuery[]): LinearModel {
  const d = features.length;
  const w = new Float64Array(d);
  const usable = queries.filter(hasRightAndWrong);
  if (usable.length === 0) return { features, weights: [...w] };
  const grad = new Float64Array(d);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    grad.fill(0);
    for (const q of usable) {
      const scores = q.candidates.map((x) => dot(w, x));
      const max = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - max));
      const z = exp.reduce((a, b) => a + b, 0);
      const right = q.relevant.filter(Boolean).length;
      // d/dw of −Σ y·log softmax = Σ (softmax − y) · x
      q.candidates.forEach((x, j) => {
        const c = exp[j] / z - (q.relevant[j] ? 1 / right : 0);
        for (let i = 0; i < d; i++) grad[i] += c * x[i];
      });
    }
    for (let i = 0; i < d; i++) w[i] -= STEP * (grad[i] / usable.length + L2 * w[i]);
  }
  const weights = [...w].map((v) => Math.round(v * 1e4) / 1e4);
  const trees = boost(usable, (x) => dot(weights, x));
  return { features, weights, trees };
}

/** The model as the JSON of ./weights.json: features and weights a line each, each tree on one line. */
export function modelJson(model: LinearModel): string {
  const { trees = [], ...linear } = model;
  const head = JSON.stringify(linear, null, 2).replace(/\n}$/, '');
  const list = trees.length ? `[\n${trees.map((t) => `    ${JSON.stringify(t)}`).join(',\n')}\n  ]` : '[]';
  return `${head},\n  "trees": ${list}\n}\n`;
}
