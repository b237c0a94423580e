/**
 * ColQwen/ColPali worker over HTTP (contract in COLQWEN_WORKER.md): page images in, a bag of
 * patch vectors per page out; queries in, a bag of token vectors out. The client puts a timeout
 * on every request; whether and when to retry is the project's one retry policy (../retry.ts:
 * 429, 408, 5xx, timeouts and network errors, exponential backoff with jitter, Retry-After
 * honoured); other 4xx are the caller's fault and fail at once.
 */
import fs from 'node:fs/promises';
import { APICallError } from 'ai';
import type { VectorCache } from '../embeddings/cache';
import { l2normalize, sha256Hex } from '../embeddings/util';
import { giveUpNote, retryAfterMs, retryPolicy, withRetry, type AttemptResult, type RetryPolicy } from '../retry';
import type { CallOptions, MultiVectorEmbedder } from '../types';
import { cachedPageBags } from './cached-bags';
import { poolVectors } from './pooling';

export interface ColQwenClientOptions {
  /** Worker base URL, e.g. http://localhost:8001 (COLQWEN_URL). */
  url: string;
  /** Per-request timeout. Image batches on a CPU worker are slow, hence the generous default. */
  timeoutMs?: number;
  /** Requests per call, the first one included (default: the retry policy's, 3). */
  maxAttempts?: number;
  /** First backoff; doubles per retry, with jitter, capped by maxBackoffMs (defaults: the retry policy's). */
  backoffMs?: number;
  maxBackoffMs?: number;
  fetch?: typeof fetch;
  /** Waits out a backoff; tests inject one that records the delay and returns at once. */
  sleep?: RetryPolicy['sleep'];
}

export interface ColQwenHealth {
  model: string;
  dim: number;
}

export class ColQwenError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** From a Retry-After header: how long the worker asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ColQwenError';
  }
}

export class ColQwenClient {
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  /** Attempts made (including retries), for logs and tests. */
  attempts = 0;

  constructor(opts: ColQwenClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.retry = retryPolicy({ maxAttempts: opts.maxAttempts, initialBackoffMs: opts.backoffMs, maxBackoffMs: opts.maxBackoffMs, sleep: opts.sleep });
    this.fetchFn = opts.fetch ?? fetch;
  }

  async health(opts?: CallOptions): Promise<ColQwenHealth> {
    const body = await this.request<Partial<ColQwenHealth>>('GET', '/health', undefined, opts);
    if (typeof body.model !== 'string' || !Number.isInteger(body.dim) || (body.dim ?? 0) <= 0) {
      throw new ColQwenError(`ColQwen worker /health returned ${JSON.stringify(body)}; expected {model, dim}`, false);
    }
    return { model: body.model, dim: body.dim! };
  }

  async embedQueries(queries: string[], opts?: CallOptions): Promise<Float32Array[][]> {
    if (queries.length === 0) return [];
    const body = await this.request<{ embeddings?: unknown }>('POST', '/embed/query', { queries }, opts);
    return parseBags(body.embeddings, queries.length, '/embed/query');
  }

  /** `images` are base64-encoded PNGs (no data: prefix). */
  async embedImages(images: string[], opts?: CallOptions): Promise<Float32Array[][]> {
    if (images.length === 0) return [];
    const body = await this.request<{ embeddings?: unknown }>('POST', '/embed/images', { images }, opts);
    return parseBags(body.embeddings, images.length, '/embed/images');
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body: unknown, opts?: CallOptions): Promise<T> {
    const url = `${this.url}${path}`;
    const attempt = async (): Promise<AttemptResult<T>> => {
      this.attempts++;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        const res = await this.fetchFn(url, {
          method,
          headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
        if (res.ok) {
          try {
            return { ok: true, value: (await res.json()) as T };
          } catch (err) {
            throw new ColQwenError(`ColQwen worker ${method} ${path} returned invalid JSON: ${describe(err)}`, false, res.status);
          }
        }
        // An HTTP answer is classified by its status and headers.
        const detail = (await res.text().catch(() => '')).slice(0, 300);
        const message = `ColQwen worker ${method} ${path} answered ${res.status}${detail ? `: ${detail}` : ''}`;
        const cause = new APICallError({
          message,
          url,
          requestBodyValues: body ?? {},
          statusCode: res.status,
          responseHeaders: Object.fromEntries(res.headers),
          responseBody: detail,
        });
        return { ok: false, cause, error: { message, status: res.status } };
      } catch (err) {
        if (err instanceof ColQwenError) throw err;
        if (opts?.signal?.aborted) throw opts.signal.reason;
        // No HTTP answer: a timeout or an unreachable worker is transient.
        const message = timeout.aborted
          ? `ColQwen worker ${method} ${path} timed out after ${this.timeoutMs} ms`
          : `ColQwen worker ${method} ${path} unreachable: ${describe(err)}`;
        return { ok: false, cause: err, transient: true, error: { message } };
      }
    };
    return withRetry(this.retry, attempt, {
      signal: opts?.signal,
      giveUp: ({ cause, error }, decision, attempts) => {
        const { message, status } = error as { message: string; status?: number };
        // Retryable only when the worker is fine but asked for a longer pause than the policy waits.
        return new ColQwenError(message + giveUpNote(decision, cause, attempts), decision.why === 'retry-after', status, retryAfterMs(cause));
      },
    });
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { cause?: { code?: string } }).cause?.code;
    return code ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}

function parseBags(raw: unknown, expected: number, path: string): Float32Array[][] {
  if (!Array.isArray(raw) || raw.length !== expected) {
    throw new ColQwenError(`ColQwen worker ${path} returned ${Array.isArray(raw) ? raw.length : typeof raw} embeddings for ${expected} inputs`, false);
  }
  return raw.map((bag, i) => {
    if (!Array.isArray(bag)) throw new ColQwenError(`ColQwen worker ${path}: embeddings[${i}] is not a list of vectors`, false);
    return bag.map((v, j) => {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'number')) {
        throw new ColQwenError(`ColQwen worker ${path}: embeddings[${i}][${j}] is not a number[]`, false);
      }
      return l2normalize(Float32Array.from(v as number[]));
    });
  });
}

export interface ColQwenEmbedderOptions extends ColQwenClientOptions {
  /** Patch vectors kept per page after pooling (ColQwen2 emits ~700+ per page). */
  maxVectorsPerPage?: number;
  /** Images per request. */
  imageBatchSize?: number;
  cache?: VectorCache | null;
}

export class ColQwenMultiVectorEmbedder implements MultiVectorEmbedder {
  readonly provider = 'colqwen' as const;
  readonly id: string;
  readonly dimensions: number;
  readonly maxVectorsPerPage: number;
  private readonly imageBatchSize: number;
  private readonly cache: VectorCache | null;

  private constructor(
    readonly client: ColQwenClient,
    health: ColQwenHealth,
    opts: ColQwenEmbedderOptions,
  ) {
    this.dimensions = health.dim;
    this.maxVectorsPerPage = opts.maxVectorsPerPage ?? 256;
    this.id = `colqwen:${health.model}:${health.dim}:pool${this.maxVectorsPerPage}`;
    this.imageBatchSize = Math.max(1, opts.imageBatchSize ?? 4);
    this.cache = opts.cache ?? null;
  }

  /** Asks the worker for its model and vector size first, so a dead worker fails here, clearly. */
  static async create(opts: ColQwenEmbedderOptions, callOpts?: CallOptions): Promise<ColQwenMultiVectorEmbedder> {
    const client = new ColQwenClient(opts);
    const health = await client.health(callOpts);
    return new ColQwenMultiVectorEmbedder(client, health, opts);
  }

  async embedPages(pages: Array<{ text: string; imagePath?: string }>, opts?: CallOptions): Promise<Float32Array[][]> {
    const missingImage = pages.findIndex((p) => !p.imagePath);
    if (missingImage >= 0) {
      throw new ColQwenError(`ColQwen embeds page images: page ${missingImage + 1} of this batch has no imagePath (render pages before embedding)`, false);
    }
    const images = await Promise.all(pages.map((p) => fs.readFile(p.imagePath!)));
    // Keyed by image bytes: re-ingesting the same PDF finds every page in the cache.
    const keys = images.map((img) => ({ model: this.id, kind: 'page' as const, text: `png:${sha256Hex(img.toString('base64'))}` }));
    const embed = async (idx: number[]) => {
      const bags = await this.client.embedImages(
        idx.map((i) => images[i].toString('base64')),
        opts,
      );
      return idx.map((_, j) => {
        this.checkDim(bags[j]);
        return poolVectors(bags[j], this.maxVectorsPerPage);
      });
    };
    return cachedPageBags(this.cache, keys, this.imageBatchSize, embed);
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array[]> {
    const [bag] = await this.client.embedQueries([text], opts);
    this.checkDim(bag);
    return bag;
  }

  private checkDim(bag: Float32Array[]): void {
    const bad = bag.find((v) => v.length !== this.dimensions);
    if (bad) throw new ColQwenError(`ColQwen worker returned ${bad.length}-dim vectors, /health said ${this.dimensions}`, false);
  }
}
