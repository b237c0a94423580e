/**
 * OpenAI-compatible /embeddings (Ollama, vLLM, LM Studio, llama.cpp server, TEI…) through
 * @ai-sdk/openai-compatible. The API has no query/document distinction, so the instruction
 * prefixes of known asymmetric models (nomic-embed-text, e5, bge) are added to the text.
 * Servers do not announce the vector size, so creation embeds one probe text to learn it.
 * Request size is bounded by the caching wrapper's batch size (EMBEDDING_BATCH_SIZE).
 *
 * Faults: every request has a timeout and is retried under the policy of every model call
 * (request.ts, ../retry.ts), so a hung or overloaded server ends in a clear error within a bounded
 * time instead of stalling an ingest or a search. A malformed answer fails at once.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { retryPolicy, type RetryPolicy } from '../retry';
import type { CallOptions, Embedder } from '../types';
import { instructionPrefixes, type InstructionPrefixes } from './prefixes';
import { embedRequest as request, type EmbedTransport as Transport } from './request';
import { l2normalize, toFloat32 } from './util';

export interface OpenAICompatibleEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
  /** Total requests per call, the first one included. Default 3. */
  maxAttempts?: number;
  /** Per-request deadline. Default 60 000 ms (a CPU server embedding a 64-text batch is slow). */
  timeoutMs?: number;
  /** Backoff before the first retry, doubling after. Default 500 ms. */
  initialBackoffMs?: number;
  /** Cap of the exponential backoff. Default 8 000 ms. */
  maxBackoffMs?: number;
  /** Waits out a backoff; tests inject one that returns at once. */
  sleep?: RetryPolicy['sleep'];
}
export class OpenAICompatibleEmbedder implements Embedder {
  readonly provider = 'openai-compatible' as const;
  readonly id: string;
  /** Without the host: the same model served elsewhere gives the same vectors. */
  readonly fingerprint: string;
  private readonly prefixes: InstructionPrefixes;

  private constructor(
    opts: OpenAICompatibleEmbedderOptions,
    readonly dimensions: number,
    private readonly transport: Transport,
  ) {
    this.id = `openai-compatible:${new URL(opts.baseURL).host}:${opts.model}:${dimensions}`;
    this.fingerprint = `openai-compatible:${opts.model}:${dimensions}`;
    this.prefixes = instructionPrefixes(opts.model);
  }

  /** Creates the embedder after one probe call that learns the vector size. */
  static async create(opts: OpenAICompatibleEmbedderOptions, callOpts?: CallOptions): Promise<OpenAICompatibleEmbedder> {
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: opts.baseURL,
      apiKey: opts.apiKey,
      fetch: opts.fetch,
    });
    const transport: Transport = {
      label: `embedding server ${new URL(opts.baseURL).host} (${opts.model})`,
      model: provider.embeddingModel(opts.model),
      timeoutMs: opts.timeoutMs ?? 60_000,
      retry: retryPolicy({ maxAttempts: opts.maxAttempts, initialBackoffMs: opts.initialBackoffMs, maxBackoffMs: opts.maxBackoffMs, sleep: opts.sleep }),
      secrets: [opts.apiKey],
    };
    const [embedding] = await request(transport, ['dimension probe'], callOpts?.signal);
    if (!embedding?.length) throw new Error(`${transport.label} returned an empty embedding`);
    return new OpenAICompatibleEmbedder(opts, embedding.length, transport);
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const embeddings = await request(
      this.transport,
      texts.map((t) => this.prefixes.document + t),
      opts?.signal,
    );
    return embeddings.map((e) => this.check(e));
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    const [embedding] = await request(this.transport, [this.prefixes.query + text], opts?.signal);
    return this.check(embedding);
  }

  private check(values: number[]): Float32Array {
    if (values.length !== this.dimensions) {
      throw new Error(`${this.id} returned ${values.length} dimensions, expected ${this.dimensions}`);
    }
    return l2normalize(toFloat32(values));
  }
}
