/**
 * OpenAI-compatible /embeddings (Ollama, vLLM, LM Studio, llama.cpp server, TEI…) through
 * @ai-sdk/openai-compatible. The API has no query/document distinction, so the instruction
 * prefixes of known asymmetric models (nomic-embed-text, e5, bge) are added to the text.
 * Servers do not announce the vector size, so creation embeds one probe text to learn it.
 * Request size is bounded by the caching wrapper's batch size (EMBEDDING_BATCH_SIZE).
 *
 * Faults: every request has a timeout, and 429, 5xx, timeouts and network errors are retried with
 * backoff (honouring Retry-After), so a hung or overloaded server ends in a clear error within
 * a bounded time instead of stalling an ingest or a search. A malformed answer fails at once.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import { sleep } from '@/lib/runtime/abort';
import { backoffDelay, classifyError, retryAfterMs } from '../llm/retry';
import { redact, withoutSecrets } from '../redact';
import type { CallOptions, Embedder } from '../types';
import { instructionPrefixes, type InstructionPrefixes } from './prefixes';
import { errorMessage, l2normalize, toFloat32 } from './util';

export interface OpenAICompatibleEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Per-request deadline. Default 60 000 ms (a CPU server embedding a 64-text batch is slow). */
  timeoutMs?: number;
  /** Backoff before the first retry, doubling after. Default 500 ms. */
  initialBackoffMs?: number;
  /** Cap of the exponential backoff. Default 8 000 ms. */
  maxBackoffMs?: number;
}

/** A Retry-After longer than this is not waited for: the call fails at once, saying so. */
const MAX_RETRY_AFTER_MS = 30_000;

interface Transport {
  label: string;
  model: EmbeddingModel;
  maxRetries: number;
  timeoutMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** The API key: kept out of the errors (a server may echo it back). */
  secrets: Array<string | undefined>;
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
      maxRetries: opts.maxRetries ?? 2,
      timeoutMs: opts.timeoutMs ?? 60_000,
      initialBackoffMs: opts.initialBackoffMs ?? 500,
      maxBackoffMs: opts.maxBackoffMs ?? 8_000,
      secrets: [opts.apiKey],
    };
    const [embedding] = await request(transport, ['dimension probe'], callOpts?.signal);
    if (!embedding?.length) throw new Error(`${transport.label} returned an empty embedding`);
    return new OpenAICompatibleEmbedder(opts, embedding.length, transport);
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const embeddings = await request(this.transport, texts.map((t) => this.prefixes.document + t), opts?.signal);
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

/** One embeddings request with its timeout and retries. Retries live here, not in the SDK. */
async function request(t: Transport, values: string[], signal?: AbortSignal): Promise<number[][]> {
  const backoff = { initialBackoffMs: t.initialBackoffMs, maxBackoffMs: t.maxBackoffMs, maxRetryAfterMs: MAX_RETRY_AFTER_MS, random: Math.random };
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(t.timeoutMs);
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let failure: Error;
    let cause: unknown; // the raw error, for Retry-After; the thrown one carries a scrubbed copy
    let retryable = false;
    try {
      const embeddings =
        values.length === 1
          ? [(await embed({ model: t.model, value: values[0], abortSignal, maxRetries: 0 })).embedding]
          : (await embedMany({ model: t.model, values, abortSignal, maxRetries: 0, maxParallelCalls: 2 })).embeddings;
      if (embeddings.length === values.length) return embeddings;
      // A server that drops inputs would shift every later vector onto the wrong text.
      failure = new Error(`${t.label} returned ${embeddings.length} embeddings for ${values.length} texts`);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      retryable = timeout.aborted || classifyError(err).retryable;
      const what = timeout.aborted ? `did not answer within ${t.timeoutMs} ms` : `failed: ${errorMessage(err)}`;
      cause = err;
      failure = new Error(`${t.label} ${redact(what, t.secrets)}`, { cause: withoutSecrets(err, t.secrets) });
    }
    // A malformed answer or a 4xx will not get better by asking again.
    const canRetry = retryable && attempt <= t.maxRetries;
    const delay = canRetry ? backoffDelay(attempt, cause, backoff) : undefined;
    if (delay === undefined) {
      // backoffDelay refuses only a Retry-After longer than we are willing to wait.
      if (canRetry) failure.message += ` (it asked to retry after ${Math.round((retryAfterMs(cause) ?? 0) / 1000)} s)`;
      else if (attempt > 1) failure.message += ` (gave up after ${attempt} attempts)`;
      throw failure;
    }
    await sleep(delay, signal);
  }
}
