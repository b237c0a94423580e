/**
 * Local multi-vector embedder: token-level vectors of a page's text (text layer + OCR text) from
 * the active dense embedder, pooled to a bounded bag per page; queries keep one vector per token.
 * With the offline embedder the token vectors are hashed n-gram vectors (soft term matching that
 * survives OCR merges); with transformers.js they are the model's contextual token outputs
 * (ColBERT-style late interaction on a model that was not trained for it).
 */
import type { VectorCache } from '../embeddings/cache';
import type { TokenVectorSource } from '../embeddings/token-vectors';
import type { CallOptions, MultiVectorEmbedder } from '../types';
import { cachedPageBags } from './cached-bags';
import { poolVectors, type Linkage } from './pooling';

/** Bound on vectors per page for model token outputs (384+ dims each). */
export const DEFAULT_MAX_VECTORS_PER_PAGE = 128;
/**
 * Bound for the offline hashed token vectors (128 dims, so 256 of them cost what 128 model
 * vectors of 256 dims would): pooling below ~256 cost ~0.03 MRR in the embedder measurement
 * script (removed in 0c4f907: `git show 0c4f907^:scripts/measure-embedders.ts`).
 */
export const OFFLINE_MAX_VECTORS_PER_PAGE = 256;
/** Long questions are rare; past this the extra tokens only add noise to the sum. */
const MAX_QUERY_VECTORS = 64;

export interface LocalMultiVectorOptions {
  maxVectorsPerPage?: number;
  linkage?: Linkage;
  /** Pooled page bags are cached when the token source is costly (a transformer). */
  cache?: VectorCache | null;
  /** Pages per call to the token source. */
  batchSize?: number;
}

export class LocalMultiVectorEmbedder implements MultiVectorEmbedder {
  readonly provider = 'local' as const;
  readonly id: string;
  readonly dimensions: number;
  readonly maxVectorsPerPage: number;
  private readonly linkage: Linkage;
  private readonly cache: VectorCache | null;
  private readonly batchSize: number;

  constructor(
    private readonly source: TokenVectorSource,
    opts: LocalMultiVectorOptions = {},
  ) {
    this.maxVectorsPerPage = opts.maxVectorsPerPage ?? DEFAULT_MAX_VECTORS_PER_PAGE;
    this.linkage = opts.linkage ?? 'ward';
    this.dimensions = source.tokenDimensions;
    this.id = `local:${source.tokenVectorsId}:pool${this.maxVectorsPerPage}-${this.linkage}`;
    this.cache = opts.cache ?? null;
    this.batchSize = Math.max(1, opts.batchSize ?? 8);
  }

  async embedPages(pages: Array<{ text: string; imagePath?: string }>, opts?: CallOptions): Promise<Float32Array[][]> {
    const keys = pages.map((p) => ({ model: this.id, kind: 'page' as const, text: p.text }));
    const embed = async (idx: number[]) => {
      const tokenBags = await this.source.embedTokens(
        idx.map((i) => pages[i].text),
        { kind: 'document', signal: opts?.signal },
      );
      const bags: Float32Array[][] = [];
      for (let j = 0; j < idx.length; j++) {
        // Pooling is CPU work (a few ms per page): yield between pages to keep requests flowing.
        if (j > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        // A page with no text (an unOCRed scan) has an empty bag: it can only be found visually.
        bags.push(poolVectors(tokenBags[j].vectors, this.maxVectorsPerPage, { linkage: this.linkage }));
      }
      return bags;
    };
    return cachedPageBags(this.cache, keys, this.batchSize, embed, opts?.signal);
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array[]> {
    const [bag] = await this.source.embedTokens([text], { kind: 'query', signal: opts?.signal });
    return bag.vectors.slice(0, MAX_QUERY_VECTORS);
  }
}
