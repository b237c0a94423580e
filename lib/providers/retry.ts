/**
 * The one retry policy of every model call (LLM, VLM, embeddings, the ColQwen worker): which errors
 * are worth another attempt (429, 408, 5xx, network), how long to wait (exponential backoff with
 * jitter, or the server's Retry-After), and when to give up. The LLM client, the embedders and the
 * ColQwen client all run their attempts through `withRetry`; the AI SDK's own retries stay off
 * (maxRetries: 0).
 */
import { APICallError } from 'ai';
import { sleep } from '@/lib/runtime/abort';
import type { LlmErrorCode } from './llm/errors';

export interface BackoffOptions {
  /** Delay before the 2nd attempt; doubles each attempt. */
  initialBackoffMs: number;
  /** Ceiling of the exponential delay (before jitter). */
  maxBackoffMs: number;
  /** A Retry-After longer than this is not waited for: the call fails at once as rate-limited. */
  maxRetryAfterMs: number;
  /** Source of jitter in [0, 1). */
  random: () => number;
}

export interface RetryPolicy extends BackoffOptions {
  /** Total calls per request, the first one included. */
  maxAttempts: number;
  /** How a backoff is waited for; tests inject one that records the delay and returns at once. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const RETRY_DEFAULTS = {
  maxAttempts: 3,
  initialBackoffMs: 500,
  maxBackoffMs: 8_000,
  maxRetryAfterMs: 30_000,
} as const;

/** The defaults with any of `overrides` that are set. */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...RETRY_DEFAULTS, random: Math.random, sleep, ...defined };
}

export interface Classified {
  code: LlmErrorCode;
  retryable: boolean;
  statusCode?: number;
}

// Socket-level failures worth a second try (same list as @ai-sdk/provider-utils, plus DNS hiccups).
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);

function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code)) return true;
    if (current instanceof TypeError && /^(fetch failed|failed to fetch)$/i.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

export function classifyError(error: unknown): Classified {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429) return { code: 'llm:rate_limit', retryable: true, statusCode: status };
    if (status === 408 || (status !== undefined && status >= 500)) return { code: 'llm:unavailable', retryable: true, statusCode: status };
    if (status === 401 || status === 403) return { code: 'llm:auth', retryable: false, statusCode: status };
    if (status !== undefined && status >= 400) return { code: 'llm:bad_request', retryable: false, statusCode: status };
    // No status: the SDK wraps connection failures as APICallError without one.
    if (status === undefined && (error.isRetryable || isNetworkError(error))) return { code: 'llm:unavailable', retryable: true };
    return { code: 'llm:provider', retryable: false, statusCode: status };
  }
  if (isNetworkError(error)) return { code: 'llm:unavailable', retryable: true };
  return { code: 'llm:provider', retryable: false };
}

/** Milliseconds the server asked us to wait (Retry-After-Ms, Retry-After seconds or HTTP date). */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error) || !error.responseHeaders) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(error.responseHeaders)) headers[k.toLowerCase()] = v;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers['retry-after'];
  if (ra === undefined || ra.trim() === '') return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before attempt `attempt + 1`. Exponential with "equal jitter" (half fixed, half random) so
 * parallel callers hitting the same 429 do not come back in lockstep; a server's Retry-After wins.
 * Returns undefined when the server asks for longer than we are willing to wait.
 */
export function backoffDelay(attempt: number, error: unknown, opts: BackoffOptions): number | undefined {
  const asked = retryAfterMs(error);
  if (asked !== undefined) return asked <= opts.maxRetryAfterMs ? asked : undefined;
  const base = Math.min(opts.maxBackoffMs, opts.initialBackoffMs * 2 ** (attempt - 1));
  return Math.round(base / 2 + opts.random() * (base / 2));
}

export type RetryDecision =
  | { retry: true; delayMs: number; classified: Classified }
  /** why: 'permanent' (not transient), 'exhausted' (last attempt), 'retry-after' (server asked for too long). */
  | { retry: false; why: 'permanent' | 'exhausted' | 'retry-after'; classified: Classified };

/**
 * After attempt `attempt` (1-based) failed with `error`: retry after `delayMs`, or give up and why.
 * `transient` overrides the classification (an embedder's own timeout is transient though the
 * error it sees is an AbortError).
 */
export function nextRetry(attempt: number, error: unknown, policy: RetryPolicy, transient?: boolean): RetryDecision {
  const classified = classifyError(error);
  if (!(transient ?? classified.retryable)) return { retry: false, why: 'permanent', classified };
  if (attempt >= policy.maxAttempts) return { retry: false, why: 'exhausted', classified };
  const delayMs = backoffDelay(attempt, error, policy);
  return delayMs === undefined ? { retry: false, why: 'retry-after', classified } : { retry: true, delayMs, classified };
}

/** One attempt's outcome: a value, or a failure the policy classifies (`transient` overrides it). */
export type AttemptResult<T> = { ok: true; value: T } | { ok: false; cause: unknown; transient?: boolean; error?: unknown };

export type GiveUp = Extract<RetryDecision, { retry: false }>;

export interface RetryHooks {
  /** Cancels the loop: checked before each attempt and while waiting. */
  signal?: AbortSignal;
  /** The error to throw when the policy gives up (default: the attempt's `error`, else its `cause`). */
  giveUp?: (failure: { cause: unknown; error?: unknown }, decision: GiveUp, attempt: number) => unknown;
  /** Told before each wait, e.g. to log it. */
  onRetry?: (decision: Extract<RetryDecision, { retry: true }>, attempt: number) => void;
  /** Maps the error of a cancelled loop or wait (an abort, a deadline) to the one to throw. */
  onCancel?: (error: unknown) => unknown;
}

/**
 * Runs `attempt` (1-based) until it succeeds or the policy gives up. An attempt that throws ends the
 * loop at once with its error: that is how a caller's abort or a malformed answer stops retries.
 */
export async function withRetry<T>(policy: RetryPolicy, attempt: (n: number) => Promise<AttemptResult<T>>, hooks: RetryHooks = {}): Promise<T> {
  const cancelled = (error: unknown) => (hooks.onCancel ? hooks.onCancel(error) : error);
  for (let n = 1; ; n++) {
    if (hooks.signal?.aborted) throw cancelled(hooks.signal.reason);
    const result = await attempt(n);
    if (result.ok) return result.value;
    const next = nextRetry(n, result.cause, policy, result.transient);
    if (!next.retry) throw hooks.giveUp ? hooks.giveUp(result, next, n) : (result.error ?? result.cause);
    hooks.onRetry?.(next, n);
    try {
      await policy.sleep(next.delayMs, hooks.signal);
    } catch (err) {
      throw cancelled(err);
    }
  }
}

/** What a give-up message adds: the server's asked-for pause, or how many attempts were made. */
export function giveUpNote(decision: GiveUp, cause: unknown, attempts: number): string {
  if (decision.why === 'retry-after') return ` (it asked to retry after ${Math.round((retryAfterMs(cause) ?? 0) / 1000)} s)`;
  return attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
}
