/**
 * Typed errors of the LLM client. Every failure that leaves `client.model` (except a caller's
 * abort, which is re-thrown as the AbortError it is) is an LlmCallError with a `type:surface`
 * code, so the agent can turn it into tool feedback without parsing messages.
 *
 * LlmCallError is deliberately NOT an APICallError: the AI SDK only retries APICallErrors marked
 * retryable, so once the middleware has given up, generateText/streamText do not retry again on
 * top of it (no 3 × 3 multiplication even with the SDK's default maxRetries).
 */
export type LlmErrorCode =
  | 'llm:timeout' // the per-call deadline passed
  | 'llm:rate_limit' // HTTP 429 after all attempts (or Retry-After longer than we wait)
  | 'llm:unavailable' // 5xx / 408 / network errors after all attempts
  | 'llm:auth' // 401 / 403: key missing, wrong or without access
  | 'llm:bad_request' // other 4xx: the request itself is wrong (never retried)
  | 'llm:replay_miss' // MC_LLM_REPLAY is set and this request was not recorded
  | 'llm:vision_unsupported' // an image was sent to a client without vision
  | 'llm:provider'; // anything else the provider threw (invalid response, parse error…)

export class LlmCallError extends Error {
  override readonly name = 'LlmCallError';
  readonly code: LlmErrorCode;
  /** Model calls made (0 for replay and validation errors). */
  readonly attempts: number;
  readonly statusCode?: number;
  /** True when the failure was transient (rate limit, outage, timeout): trying later may work. */
  readonly transient: boolean;

  constructor(code: LlmErrorCode, message: string, opts: { attempts?: number; statusCode?: number; transient?: boolean; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.attempts = opts.attempts ?? 0;
    this.statusCode = opts.statusCode;
    this.transient = opts.transient ?? false;
  }

  static isInstance(error: unknown): error is LlmCallError {
    return error instanceof Error && error.name === 'LlmCallError' && typeof (error as LlmCallError).code === 'string';
  }
}

/** AbortError / TimeoutError as thrown by fetch, DOMException or Next.js. */
export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) &&
    (error.name === 'AbortError' || error.name === 'TimeoutError' || error.name === 'ResponseAborted')
  );
}
