/**
 * Token-level outputs of a dense embedder: what the local multi-vector embedder turns into
 * ColBERT-style page bags. Only embedders that can produce them (the offline hashed n-gram
 * embedder and transformers.js) implement this; API embedders return one vector per text.
 */
import type { CallOptions, Embedder } from '../types';

export interface TokenVectors {
  /** Surface form of each kept token (for debugging and adjacent-token pooling). */
  tokens: string[];
  /** One L2-normalised vector per kept token, same order as `tokens`. */
  vectors: Float32Array[];
}

export interface TokenOptions extends CallOptions {
  /** Queries drop stopwords more aggressively; documents keep everything that carries content. */
  kind: 'query' | 'document';
}

export interface TokenVectorSource {
  /** Stable id of the token-vector settings (part of multi-vector cache keys). */
  readonly tokenVectorsId: string;
  readonly tokenDimensions: number;
  embedTokens(texts: string[], opts: TokenOptions): Promise<TokenVectors[]>;
}

export function hasTokenVectors(e: Embedder): e is Embedder & TokenVectorSource {
  return typeof (e as Partial<TokenVectorSource>).embedTokens === 'function';
}
