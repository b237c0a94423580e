/**
 * Gemini embeddings (gemini-embedding-001) through the AI SDK. Queries and documents use the
 * RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT task types the model was trained with. The output is
 * truncated to 768 dimensions (Matryoshka), which Google recommends for storage; truncated
 * vectors are not unit length, so they are normalised here. Requests have a timeout and are
 * retried under the policy of every model call (request.ts), not by the SDK.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { retryPolicy, type RetryPolicy } from '../retry';
import type { CallOptions, Embedder } from '../types';
import { embedRequest, type EmbedTransport } from './request';
import { l2normalize, toFloat32 } from './util';

export interface GeminiEmbedderOptions {
  apiKey: string;
  model: string;
  /** outputDimensionality: 768 (default), 1536 or 3072. */
  dimensions?: number;
  /** Override for tests or proxies. */
  baseURL?: string;
  fetch?: typeof fetch;
  /** Total requests per call, the first one included. Default 3. */
  maxAttempts?: number;
  /** Per-request deadline. Default 60 000 ms. */
  timeoutMs?: number;
  /** Waits out a backoff; tests inject one that returns at once. */
  sleep?: RetryPolicy['sleep'];
  maxParallelCalls?: number;
}

export class GeminiEmbedder implements Embedder {
  readonly provider = 'gemini' as const;
  readonly id: string;
  readonly fingerprint: string;
  readonly dimensions: number;
  private readonly transport: Omit<EmbedTransport, 'providerOptions'>;

  constructor(opts: GeminiEmbedderOptions) {
    this.dimensions = opts.dimensions ?? 768;
    this.id = `gemini:${opts.model}:${this.dimensions}`;
    this.fingerprint = this.id;
    const google = createGoogleGenerativeAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, fetch: opts.fetch });
    this.transport = {
      label: `Gemini embeddings (${opts.model})`,
      model: google.embeddingModel(opts.model),
      timeoutMs: opts.timeoutMs ?? 60_000,
      retry: retryPolicy({ maxAttempts: opts.maxAttempts, sleep: opts.sleep }),
      // Errors keep the key out (a proxy may echo it back); they end up in ingest status and logs.
      secrets: [opts.apiKey],
      maxParallelCalls: opts.maxParallelCalls ?? 2,
    };
  }

  private with(taskType: 'RETRIEVAL_QUERY' | 'RETRIEVAL_DOCUMENT'): EmbedTransport {
    return { ...this.transport, providerOptions: { google: { taskType, outputDimensionality: this.dimensions } } };
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const embeddings = await embedRequest(this.with('RETRIEVAL_DOCUMENT'), texts, opts?.signal);
    return embeddings.map((e) => this.check(e));
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    const [embedding] = await embedRequest(this.with('RETRIEVAL_QUERY'), [text], opts?.signal);
    return this.check(embedding);
  }

  private check(values: number[]): Float32Array {
    if (values.length !== this.dimensions) {
      throw new Error(`Gemini ${this.id} returned ${values.length} dimensions, expected ${this.dimensions}`);
    }
    return l2normalize(toFloat32(values));
  }
}
