/**
 * Okapi BM25 over an in-memory inverted index: the one BM25 of the code base (page ranking,
 * passage ranking inside answers, the offline answer's sentence scoring, skill matching and the
 * eval's baseline all use it). k1 = 1.2 and b = 0.75 are Robertson's textbook defaults, not tuned
 * here; a use may pass its own (Bm25Options). idf = ln(1 + (N − df + 0.5) / (df + 0.5)) (never
 * negative).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export class Bm25Index {
  readonly size: number;
  readonly lengths: Float64Array;
  readonly avgLength: number;
  /** term → postings: [doc index, term frequency] */
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly k1: number;
  private readonly b: number;

  /** `docs[i]` holds document i's terms (duplicates kept). */
  constructor(docs: ReadonlyArray<readonly string[]>, opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? BM25_K1;
    this.b = opts.b ?? BM25_B;
    this.size = docs.length;
    this.lengths = new Float64Array(docs.length);
    let total = 0;
    docs.forEach((terms, i) => {
      this.lengths[i] = terms.length;
      total += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push([i, f]);
      }
    });
    this.avgLength = docs.length ? total / docs.length || 1 : 1;
  }

  df(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  idf(term: string): number {
    return idf(this.size, this.df(term));
  }

  /** Term frequency of `term` in document `doc` (0 when absent). */
  tf(term: string, doc: number): number {
    const list = this.postings.get(term);
    if (!list) return 0;
    // Postings are in document order: binary search.
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = list[mid][0];
      if (d === doc) return list[mid][1];
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** The BM25 weight of one term occurring `f` times in document `doc`. */
  termScore(term: string, f: number, doc: number): number {
    if (f <= 0) return 0;
    const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.avgLength);
    return (this.idf(term) * f * (this.k1 + 1)) / (f + norm);
  }

  /**
   * What one occurrence of a term adds in document `doc`, per unit of idf:
   * (k1 + 1) / (1 + k1 · (1 − b + b · length / average length)). For a scorer that counts each
   * term once per document and weighs it its own way (the offline answer's units).
   */
  lengthNorm(doc: number): number {
    return (this.k1 + 1) / (1 + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.avgLength));
  }

  /** Scores of every document with at least one query term (query terms counted once). */
  scores(query: readonly string[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const t of new Set(query)) {
      const list = this.postings.get(t);
      if (!list) continue;
      for (const [doc, f] of list) out.set(doc, (out.get(doc) ?? 0) + this.termScore(t, f, doc));
    }
    return out;
  }

  /** One score per document, in document order (0 where no query term occurs). */
  scoreEach(query: readonly string[]): number[] {
    const out = new Array<number>(this.size).fill(0);
    for (const [doc, s] of this.scores(query)) out[doc] = s;
    return out;
  }

  /** The score of one document. */
  score(query: readonly string[], doc: number): number {
    let s = 0;
    for (const t of new Set(query)) s += this.termScore(t, this.tf(t, doc), doc);
    return s;
  }

  /** The best `limit` documents, best first (ties by index). */
  search(query: readonly string[], limit: number): Array<{ doc: number; score: number }> {
    return [...this.scores(query)]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit);
  }
}
