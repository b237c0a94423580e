/**
 * Per-owner rate limits (sliding window, in memory): a runaway script or a stuck retry loop cannot
 * monopolise the agent or fill the disk. One process serves an instance, so memory is the right
 * place; limits reset on restart, which is acceptable for abuse protection.
 */
import { runtimeNumber } from './providers/config';

export interface RateLimit {
  /** Events allowed per window. */
  limit: number;
  windowMs: number;
}

export const LIMITS = {
  ask: { limit: runtimeNumber('MC_RATE_ASKS_PER_MIN', 30, { integer: true }), windowMs: 60_000 },
  upload: { limit: runtimeNumber('MC_RATE_UPLOADS_PER_10MIN', 60, { integer: true }), windowMs: 600_000 },
} satisfies Record<string, RateLimit>;

export type RateResult = { ok: true; remaining: number } | { ok: false; retryAfterS: number };

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateResult {
    const t = this.now();
    const since = t - this.rule.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((x) => x > since);
    if (recent.length >= this.rule.limit) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((recent[0] + this.rule.windowMs - t) / 1000)) };
    }
    recent.push(t);
    this.hits.set(key, recent);
    // Forget idle keys now and then so the map does not grow without bound.
    if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (!v.some((x) => x > since)) this.hits.delete(k);
    return { ok: true, remaining: this.rule.limit - recent.length };
  }
}

const limiters = globalThis as unknown as { __mcLimiters?: Record<keyof typeof LIMITS, RateLimiter> };

export function rateLimit(kind: keyof typeof LIMITS, ownerId: string): RateResult {
  limiters.__mcLimiters ??= { ask: new RateLimiter(LIMITS.ask), upload: new RateLimiter(LIMITS.upload) };
  return limiters.__mcLimiters[kind].take(ownerId);
}

/** The 429 every rate-limited route answers with. */
export function tooManyRequests(what: string, retryAfterS: number): Response {
  return Response.json(
    { error: `Too many ${what}. Please wait ${retryAfterS} s and try again.`, code: 'rate_limited' },
    { status: 429, headers: { 'retry-after': String(retryAfterS) } },
  );
}
