/**
 * Gemini embeddings (gemini-embedding-001) through the AI SDK. Queries and documents use the
 * RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT task types the model was trained with. The output is
 * truncated to 768 dimensions (Matryoshka), which Google recommends for storage; truncated
 * vectors are not unit length, so they are normalised here.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import { withoutSecrets } from '../redact';
import type { CallOptions, Embedder } from '../types';
import { l2normalize, toFloat32 } from './util';

export interface GeminiEmbedderOptions {
  apiKey: string;
  model: string;
  /** outputDimensionality: 768 (default), 1536 or 3072. */
  dimensions?: number;
  /** Override for tests or proxies. */
  baseURL?: string;
  fetch?: typeof fetch;
  /** AI SDK retries with backoff on 429/5xx. */
  maxRetries?: number;
  maxParallelCalls?: number;
}

export class GeminiEmbedder implements Embedder {
  readonly provider = 'gemini' as const;
  readonly id: string;
  readonly fingerprint: string;
  readonly dimensions: number;
  private readonly model: EmbeddingModel;
  private readonly maxRetries: number;
  private readonly maxParallelCalls: number;
  /** Errors keep the key out (a proxy may echo it back); they end up in ingest status and logs. */
  private readonly scrub: (err: unknown) => unknown;

  constructor(opts: GeminiEmbedderOptions) {
    this.dimensions = opts.dimensions ?? 768;
    this.id = `gemini:${opts.model}:${this.dimensions}`;
    this.fingerprint = this.id;
    const google = createGoogleGenerativeAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, fetch: opts.fetch });
    this.model = google.embeddingModel(opts.model);
    this.maxRetries = opts.maxRetries ?? 2;
    this.maxParallelCalls = opts.maxParallelCalls ?? 2;
    this.scrub = (err) => withoutSecrets(err, [opts.apiKey]);
  }

  private providerOptions(taskType: 'RETRIEVAL_QUERY' | 'RETRIEVAL_DOCUMENT') {
    return { google: { taskType, outputDimensionality: this.dimensions } };
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { embeddings } = await embedMany({
      model: this.model,
      values: texts,
      providerOptions: this.providerOptions('RETRIEVAL_DOCUMENT'),
      abortSignal: opts?.signal,
      maxRetries: this.maxRetries,
      maxParallelCalls: this.maxParallelCalls,
    }).catch((err) => Promise.reject(this.scrub(err)));
    return embeddings.map((e) => this.check(e));
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    const { embedding } = await embed({
      model: this.model,
      value: text,
      providerOptions: this.providerOptions('RETRIEVAL_QUERY'),
      abortSignal: opts?.signal,
      maxRetries: this.maxRetries,
    }).catch((err) => Promise.reject(this.scrub(err)));
    return this.check(embedding);
  }

  private check(values: number[]): Float32Array {
    if (values.length !== this.dimensions) {
      throw new Error(`Gemini ${this.id} returned ${values.length} dimensions, expected ${this.dimensions}`);
    }
    return l2normalize(toFloat32(values));
  }
}
