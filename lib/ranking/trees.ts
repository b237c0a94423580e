/**
 * Gradient-boosted regression trees on top of the linear ranker: the interactions a linear model
 * cannot express ("this page's passage score counts when the question names its manual"). Each
 * tree fits the listwise loss's gradient at the current scores (the linear model's, then each tree
 * added), the LambdaMART recipe with ListNet's top-one loss instead of LambdaRank's pairs, so the
 * trees correct the linear model where the training questions disagree with it and add nothing
 * where they do not.
 *
 * Fixed a priori, not tuned on the questions (common LambdaMART/LightGBM defaults for small
 * data): 50 trees, depth 3, shrinkage 0.1, L2 λ = 1 on leaf values, at least 20 candidates a
 * leaf, features cut at 32 quantiles.
 */
import { hasRightAndWrong, type TrainingQuery } from './training';

/** A tree as flat arrays: node i splits on feature[i] at threshold[i] (x ≤ t → left[i]), or is a leaf (feature −1) with value[i]. */
export interface Tree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export const BOOSTING = { trees: 50, depth: 3, shrinkage: 0.1, lambda: 1, minLeaf: 20, bins: 32 } as const;

export function treeScore(tree: Tree, x: ArrayLike<number>): number {
  let i = 0;
  while (tree.feature[i] >= 0) i = x[tree.feature[i]] <= tree.threshold[i] ? tree.left[i] : tree.right[i];
  return tree.value[i];
}

export function treesScore(trees: readonly Tree[], x: ArrayLike<number>): number {
  let s = 0;
  for (const t of trees) s += treeScore(t, x);
  return s;
}

interface Rows {
  x: Float64Array[];
  /** Each query's rows, [start, end). */
  ranges: Array<[number, number]>;
  relevant: boolean[];
}

/** Cut points per feature: up to `bins` − 1 distinct quantiles of the training values. */
function cutPoints(x: Float64Array[], d: number, bins: number): number[][] {
  const cuts: number[][] = [];
  for (let f = 0; f < d; f++) {
    const values = x.map((r) => r[f]).sort((a, b) => a - b);
    const set = new Set<number>();
    for (let b = 1; b < bins; b++) set.add(values[Math.floor((b * values.length) / bins)]);
    cuts.push([...set].sort((a, b) => a - b));
  }
  return cuts;
}

/**
 * Boosts trees on the listwise loss from the `base` scores (the linear model's). Queries without
 * both a right and a wrong candidate carry no gradient and are skipped.
 */
export function boost(queries: readonly TrainingQuery[], base: (x: Float64Array) => number, opts: Partial<typeof BOOSTING> = {}): Tree[] {
  const o = { ...BOOSTING, ...opts };
  const usable = queries.filter(hasRightAndWrong);
  const rows: Rows = { x: [], ranges: [], relevant: [] };
  for (const q of usable) {
    const start = rows.x.length;
    q.candidates.forEach((c, j) => {
      rows.x.push(c);
      rows.relevant.push(q.relevant[j]);
    });
    rows.ranges.push([start, rows.x.length]);
  }
  const n = rows.x.length;
  if (n === 0) return [];
  const d = rows.x[0].length;
  const cuts = cutPoints(rows.x, d, o.bins);
  // Bin index of each row's value per feature: value ≤ cuts[f][b] first holds at bin b.
  const binned = Array.from({ length: d }, (_, f) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = rows.x[i][f];
      let b = 0;
      while (b < cuts[f].length && v > cuts[f][b]) b++;
      out[i] = b;
    }
    return out;
  });
  const scores = Float64Array.from(rows.x, (x) => base(x));
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const trees: Tree[] = [];
  for (let t = 0; t < o.trees; t++) {
    // Gradient and Hessian (diagonal) of −Σ y·log softmax per query, y uniform over the right pages.
    for (const [a, b] of rows.ranges) {
      let max = -Infinity;
      for (let i = a; i < b; i++) max = Math.max(max, scores[i]);
      let z = 0;
      for (let i = a; i < b; i++) z += Math.exp(scores[i] - max);
      let right = 0;
      for (let i = a; i < b; i++) if (rows.relevant[i]) right++;
      // Each question weighs the same, however many candidates it has (its gradients sum to 0).
      for (let i = a; i < b; i++) {
        const p = Math.exp(scores[i] - max) / z;
        grad[i] = p - (rows.relevant[i] ? 1 / right : 0);
        hess[i] = Math.max(p * (1 - p), 1e-6);
      }
    }
    const tree = growTree(binned, cuts, grad, hess, n, o);
    for (let i = 0; i < tree.value.length; i++) tree.value[i] *= o.shrinkage;
    for (let i = 0; i < n; i++) scores[i] += treeScore(tree, rows.x[i]);
    trees.push(tree);
  }
  return trees.map(rounded);
}

function growTree(binned: Uint8Array[], cuts: number[][], grad: Float64Array, hess: Float64Array, n: number, o: typeof BOOSTING): Tree {
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const leafValue = (idx: number[]) => {
    let g = 0,
      h = 0;
    for (const i of idx) {
      g += grad[i];
      h += hess[i];
    }
    return -g / (h + o.lambda);
  };
  const add = () => {
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.value.push(0);
    return tree.feature.length - 1;
  };
  const split = (node: number, idx: number[], depth: number) => {
    tree.value[node] = leafValue(idx);
    if (depth >= o.depth || idx.length < 2 * o.minLeaf) return;
    let G = 0,
      H = 0;
    for (const i of idx) {
      G += grad[i];
      H += hess[i];
    }
    const parent = (G * G) / (H + o.lambda);
    let best = { gain: 1e-12, f: -1, b: -1 };
    for (let f = 0; f < binned.length; f++) {
      const bins = cuts[f].length + 1;
      const gs = new Float64Array(bins),
        hs = new Float64Array(bins),
        cs = new Uint32Array(bins);
      for (const i of idx) {
        const b = binned[f][i];
        gs[b] += grad[i];
        hs[b] += hess[i];
        cs[b]++;
      }
      let gl = 0,
        hl = 0,
        cl = 0;
      for (let b = 0; b < bins - 1; b++) {
        gl += gs[b];
        hl += hs[b];
        cl += cs[b];
        if (cl < o.minLeaf || idx.length - cl < o.minLeaf) continue;
        const gain = (gl * gl) / (hl + o.lambda) + ((G - gl) * (G - gl)) / (H - hl + o.lambda) - parent;
        if (gain > best.gain) best = { gain, f, b };
      }
    }
    if (best.f < 0) return;
    const l = add(),
      r = add();
    tree.feature[node] = best.f;
    tree.threshold[node] = cuts[best.f][best.b];
    tree.left[node] = l;
    tree.right[node] = r;
    split(
      l,
      idx.filter((i) => binned[best.f][i] <= best.b),
      depth + 1,
    );
    split(
      r,
      idx.filter((i) => binned[best.f][i] > best.b),
      depth + 1,
    );
  };
  split(
    add(),
    Array.from({ length: n }, (_, i) => i),
    0,
  );
  return tree;
}

const rounded = (t: Tree): Tree => ({
  ...t,
  threshold: t.threshold.map((v) => Math.round(v * 1e6) / 1e6),
  value: t.value.map((v) => Math.round(v * 1e6) / 1e6),
});
