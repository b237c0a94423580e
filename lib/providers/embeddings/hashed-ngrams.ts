/**
 * The offline embedder: signed feature hashing of character n-grams (fastText-style, no weights).
 *
 * Chosen by measurement on the real manuals (the embedder measurement script, removed in 0c4f907:
 * `git show 0c4f907^:scripts/measure-embedders.ts`): it needs no weights,
 * loads in milliseconds, and its n-grams match OCR-merged and unit-glued tokens ("GNDPA8+5U",
 * "3.3V") and word variants ("recognise"/"recognition") that exact-word features miss. Each
 * distinct token contributes its boundary-marked 3–5-grams (optionally a whole-token feature),
 * weighted by sublinear term frequency; stopwords are dropped (a built-in stand-in for idf,
 * since an embedder sees one text at a time). The same features per token give the token
 * vectors of the local multi-vector (MaxSim) embedder. Words come from the code base's one text
 * toolkit (lib/text/analyze.ts `tokens`: acronyms, compounds with weighted parts, number + unit).
 */
import type { CallOptions, Embedder } from '../types';
import { isQueryStopToken, isStopToken, tokens, type Token } from '../../text/analyze';
import type { TokenOptions, TokenVectors, TokenVectorSource } from './token-vectors';
import { l2normalize, sha256Hex, throwIfAborted } from './util';

export interface HashedNgramOptions {
  /** Dense vector size. */
  dimensions: number;
  /** Per-token vector size for the multi-vector bag (smaller keeps page bags affordable). */
  tokenDimensions: number;
  minN: number;
  maxN: number;
  /** Weight of the whole-token feature (0 by default: it made near-matches lose to exact ones). */
  wordWeight: number;
  /** Total weight of one token's n-gram block (spread over its n-grams as 1/sqrt(count)). */
  ngramWeight: number;
  /** Weight of the parts of a punctuated compound ("hx", "200" of "hx-200"). */
  partWeight: number;
  /** Weight of stopwords in dense vectors (0 drops them). */
  stopwordWeight: number;
  /** Hash seed: collisions differ per seed, so the measurement script averages over several. */
  seed: number;
}

// Picked with that script (averaged over 5 hash seeds): 3–5-grams without a
// whole-word feature beat words+n-grams both dense (MRR 0.616 vs 0.599) and as MaxSim tokens
// (0.712 vs 0.648); 768 dims sit on the plateau (384: 0.564, 1024: 0.620); token vectors keep
// MaxSim quality at 128 dims (d256: 0.716) for half the page-bag storage.
const DEFAULT_HASHED_NGRAM_OPTIONS: HashedNgramOptions = {
  dimensions: 768,
  tokenDimensions: 128,
  minN: 3,
  maxN: 5,
  wordWeight: 0,
  ngramWeight: 1,
  partWeight: 0.5,
  stopwordWeight: 0,
  seed: 0,
};

/**
 * Version of the tokenizer and hashing scheme: part of the id and fingerprint, so a change that
 * moves the vectors re-embeds the library (lib/ingest/reembed.ts). 2: tokens from lib/text.
 */
const HASHED_NGRAM_SCHEME = 2;

interface SparseFeatures {
  idx: Int32Array;
  val: Float32Array;
}

// FNV-1a over UTF-16 code units, finished with murmur3's fmix32 so low bits are well mixed.
function hash32(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const MAX_TOKEN_CACHE = 50_000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class HashedNgramEmbedder implements Embedder, TokenVectorSource {
  readonly provider = 'offline' as const;
  readonly id: string;
  readonly fingerprint: string;
  readonly tokenVectorsId: string;
  readonly dimensions: number;
  readonly tokenDimensions: number;
  readonly fallbackReason?: string;
  /** Computing is cheaper than a cache lookup, so the persistent cache skips this embedder. */
  readonly cacheable = false;
  readonly options: HashedNgramOptions;
  private readonly featureCache = new Map<number, Map<string, SparseFeatures>>();

  constructor(options: Partial<HashedNgramOptions> = {}, fallbackReason?: string) {
    this.options = { ...DEFAULT_HASHED_NGRAM_OPTIONS, ...options };
    const o = this.options;
    if (o.minN < 1 || o.maxN < o.minN) throw new Error(`invalid n-gram range ${o.minN}-${o.maxN}`);
    this.dimensions = o.dimensions;
    this.tokenDimensions = o.tokenDimensions;
    const settings = sha256Hex(JSON.stringify({ ...o, dimensions: 0, tokenDimensions: 0 })).slice(0, 8);
    this.id = `offline:hashed-ngrams@${HASHED_NGRAM_SCHEME}:${o.dimensions}:${settings}`;
    this.fingerprint = this.id;
    this.tokenVectorsId = `offline:hashed-ngrams@${HASHED_NGRAM_SCHEME}:tokens:${o.tokenDimensions}:${settings}`;
    this.fallbackReason = fallbackReason;
  }

  /** The same embedder with a fallback reason attached (the factory uses it when a model is missing). */
  withFallbackReason(reason: string): HashedNgramEmbedder {
    return new HashedNgramEmbedder(this.options, reason);
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      // Yield now and then so a big ingest does not stall requests on the same server.
      if (i > 0 && i % 64 === 0) await yieldToEventLoop();
      throwIfAborted(opts);
      out.push(this.embedSync(texts[i]));
    }
    return out;
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    throwIfAborted(opts);
    return this.embedSync(text, true);
  }

  /** Dense vector of one text (synchronous: used directly by the measurement script). */
  embedSync(text: string, query = false): Float32Array {
    const o = this.options;
    const counts = new Map<string, number>();
    for (const t of tokens(text, o.partWeight)) {
      const w = isStopToken(t) || (query && isQueryStopToken(t)) ? t.weight * o.stopwordWeight : t.weight;
      if (w > 0) counts.set(t.text, (counts.get(t.text) ?? 0) + w);
    }
    const v = new Float32Array(o.dimensions);
    for (const [token, c] of counts) {
      // Sublinear tf: a term repeated ten times should not drown the rest of the chunk.
      const w = c >= 1 ? 1 + Math.log(c) : c;
      const f = this.features(token, o.dimensions);
      for (let i = 0; i < f.idx.length; i++) v[f.idx[i]] += w * f.val[i];
    }
    return l2normalize(v);
  }

  async embedTokens(texts: string[], opts: TokenOptions): Promise<TokenVectors[]> {
    const out: TokenVectors[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (i > 0 && i % 16 === 0) await yieldToEventLoop();
      throwIfAborted(opts);
      out.push(this.tokenVectorsSync(texts[i], opts.kind === 'query'));
    }
    return out;
  }

  /**
   * One vector per distinct content token, in first-seen order. Duplicates are dropped: a
   * repeated token has the same vector, and MaxSim over a page bag ignores repeats.
   */
  tokenVectorsSync(text: string, query = false): TokenVectors {
    const seen = new Set<string>();
    const kept: string[] = [];
    const vectors: Float32Array[] = [];
    for (const t of tokens(text, this.options.partWeight)) {
      if (seen.has(t.text) || isStopToken(t) || (query && isQueryStopToken(t)) || !isContentToken(t)) continue;
      seen.add(t.text);
      const f = this.features(t.text, this.tokenDimensions);
      const v = new Float32Array(this.tokenDimensions);
      for (let i = 0; i < f.idx.length; i++) v[f.idx[i]] += f.val[i];
      kept.push(t.text);
      vectors.push(l2normalize(v));
    }
    return { tokens: kept, vectors };
  }

  /** Hashed features of one token: the whole token plus its boundary-marked character n-grams. */
  private features(token: string, dims: number): SparseFeatures {
    let cache = this.featureCache.get(dims);
    if (!cache) this.featureCache.set(dims, (cache = new Map()));
    const hit = cache.get(token);
    if (hit) return hit;

    const o = this.options;
    const grams: string[] = [];
    const marked = `<${token}>`;
    const chars = Array.from(marked);
    for (let n = o.minN; n <= o.maxN; n++) {
      for (let i = 0; i + n <= chars.length; i++) grams.push(chars.slice(i, i + n).join(''));
    }
    // Tokens shorter than minN still get one n-gram: the whole marked token.
    if (grams.length === 0) grams.push(marked);
    const gramWeight = o.ngramWeight / Math.sqrt(grams.length);

    const acc = new Map<number, number>();
    const add = (feature: string, w: number) => {
      const h = hash32(feature, 0x9e3779b9 + o.seed);
      const sign = hash32(feature, 0x7f4a7c15 + o.seed) & 1 ? 1 : -1;
      const idx = h % dims;
      acc.set(idx, (acc.get(idx) ?? 0) + sign * w);
    };
    if (o.wordWeight > 0) add(`\u0001${token}`, o.wordWeight);
    if (o.ngramWeight > 0) for (const g of grams) add(g, gramWeight);

    const entry: SparseFeatures = { idx: Int32Array.from(acc.keys()), val: Float32Array.from(acc.values()) };
    if (cache.size >= MAX_TOKEN_CACHE) cache.clear();
    cache.set(token, entry);
    return entry;
  }
}

// Lone punctuation-free single characters ("a", "x") carry no retrieval signal; digits do ("5").
function isContentToken(t: Token): boolean {
  return t.text.length > 1 || /\p{N}/u.test(t.text);
}
