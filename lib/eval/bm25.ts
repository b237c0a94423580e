/**
 * The eval's `baseline`: what a user could do without this product — a plain Okapi BM25 over
 * whole pages (text layer plus OCR lines), no chunking, no embeddings, no stop words.
 * k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), query terms counted once.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** The simple tokenizer: lower-case runs of letters and digits (NFKC first, so ligatures split sanely). */
export function tokenize(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface Bm25Doc<K> {
  key: K;
  text: string;
}

export interface Bm25Hit<K> {
  key: K;
  score: number;
}

export class Bm25Index<K> {
  private readonly keys: K[];
  private readonly lengths: Float64Array;
  private readonly avgdl: number;
  /** term → postings (doc index, term frequency) */
  private readonly postings = new Map<string, Array<[number, number]>>();

  constructor(
    docs: ReadonlyArray<Bm25Doc<K>>,
    private readonly k1 = BM25_K1,
    private readonly b = BM25_B,
  ) {
    this.keys = docs.map((d) => d.key);
    this.lengths = new Float64Array(docs.length);
    let total = 0;
    docs.forEach((d, i) => {
      const tokens = tokenize(d.text);
      this.lengths[i] = tokens.length;
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push([i, n]);
      }
    });
    this.avgdl = docs.length ? total / docs.length : 0;
  }

  get size(): number {
    return this.keys.length;
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.length ?? 0;
    const n = this.keys.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Scores of every document with at least one query term, best first (ties: document order). */
  search(query: string, limit = Infinity): Array<Bm25Hit<K>> {
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const [doc, tf] of list) {
        const norm = this.avgdl > 0 ? 1 - this.b + (this.b * this.lengths[doc]) / this.avgdl : 1;
        const s = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * norm);
        scores.set(doc, (scores.get(doc) ?? 0) + s);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc, score]) => ({ key: this.keys[doc], score }));
  }
}
