/**
 * ColQwen/ColPali worker over HTTP (contract in COLQWEN_WORKER.md): page images in, a bag of
 * patch vectors per page out; queries in, a bag of token vectors out. The client puts a timeout
 * on every request and retries 429, 5xx, timeouts and network errors with exponential backoff
 * (honouring Retry-After); other 4xx are the caller's fault and fail at once.
 */
import fs from 'node:fs/promises';
import { sleep } from '@/lib/runtime/abort';
import type { VectorCache } from '../embeddings/cache';
import { l2normalize, sha256Hex } from '../embeddings/util';
import type { CallOptions, MultiVectorEmbedder } from '../types';
import { cachedPageBags } from './cached-bags';
import { poolVectors } from './pooling';

export interface ColQwenClientOptions {
  /** Worker base URL, e.g. http://localhost:8001 (COLQWEN_URL). */
  url: string;
  /** Per-request timeout. Image batches on a CPU worker are slow, hence the generous default. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  retries?: number;
  /** First backoff; doubles per retry, with jitter, capped by maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  fetch?: typeof fetch;
  /** Waits out a backoff; tests inject one that records the delay and returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly sleep: NonNullable<ColQwenClientOptions['sleep']>;
  private readonly fetchFn: typeof fetch;
  /** Attempts made (including retries), for logs and tests. */
  attempts = 0;

  constructor(opts: ColQwenClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.retries = opts.retries ?? 3;
    this.backoffMs = opts.backoffMs ?? 500;
    this.maxBackoffMs = opts.maxBackoffMs ?? 8_000;
    this.fetchFn = opts.fetch ?? fetch;
    this.sleep = opts.sleep ?? sleep;
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
    let lastError: ColQwenError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      opts?.signal?.throwIfAborted();
      if (attempt > 0) {
        const retryAfter = lastError?.retryAfterMs;
        const exp = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1));
        // Jitter spreads retries of parallel ingests so they do not hit the worker in lockstep.
        await this.sleep(retryAfter ?? exp * (0.5 + Math.random() * 0.5), opts?.signal);
      }
      this.attempts++;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await this.fetchFn(`${this.url}${path}`, {
          method,
          headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
      } catch (err) {
        if (opts?.signal?.aborted) throw opts.signal.reason;
        const timedOut = timeout.aborted;
        lastError = new ColQwenError(
          timedOut ? `ColQwen worker ${method} ${path} timed out after ${this.timeoutMs} ms` : `ColQwen worker ${method} ${path} unreachable: ${describe(err)}`,
          true,
        );
        continue;
      }
      if (res.ok) {
        try {
          return (await res.json()) as T;
        } catch (err) {
          throw new ColQwenError(`ColQwen worker ${method} ${path} returned invalid JSON: ${describe(err)}`, false, res.status);
        }
      }
      const detail = (await res.text().catch(() => '')).slice(0, 300);
      const retryable = res.status === 429 || res.status >= 500;
      const ra = Number(res.headers.get('retry-after'));
      const retryAfterMs = Number.isFinite(ra) && ra > 0 ? Math.min(this.maxBackoffMs, ra * 1000) : undefined;
      lastError = new ColQwenError(`ColQwen worker ${method} ${path} answered ${res.status}${detail ? `: ${detail}` : ''}`, retryable, res.status, retryAfterMs);
      if (!retryable) throw lastError;
    }
    throw new ColQwenError(`${lastError?.message ?? 'ColQwen request failed'} (gave up after ${this.retries + 1} attempts)`, false, lastError?.status);
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
