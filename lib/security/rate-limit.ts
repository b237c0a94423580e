/**
 * Rate limits per owner and per client address (sliding window, in memory): a runaway script or a
 * stuck retry loop cannot monopolise the agent or fill the disk, and a client minting new cookies
 * still hits its address's limit. One process serves an instance, so memory is the right place;
 * limits reset on restart, which is acceptable for abuse protection.
 */
import { runtimeNumber } from '../config';

export interface RateLimit {
  /** Events allowed per window. */
  limit: number;
  windowMs: number;
}

export const LIMITS = {
  ask: { limit: runtimeNumber('MC_RATE_ASKS_PER_MIN', 30, { integer: true }), windowMs: 60_000 },
  upload: { limit: runtimeNumber('MC_RATE_UPLOADS_PER_10MIN', 60, { integer: true }), windowMs: 600_000 },
  /** Other writes (delete, password, share, sign-in attempts): generous for people, a wall for scripts. */
  write: { limit: 120, windowMs: 60_000 },
} satisfies Record<string, RateLimit>;

/** An address may be a team behind one NAT: it gets this many owners' worth of each limit. */
export const ADDRESS_LIMIT_FACTOR = 4;

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

type Kind = keyof typeof LIMITS;
const limiters = globalThis as unknown as { __mcLimiters?: Map<string, RateLimiter> };

/** Takes one event for `key` (an owner id, or an address with scope 'address'). */
export function rateLimit(kind: Kind, key: string, scope: 'owner' | 'address' = 'owner'): RateResult {
  const map = (limiters.__mcLimiters ??= new Map());
  const name = `${scope}:${kind}`;
  let limiter = map.get(name);
  if (!limiter) {
    const rule = LIMITS[kind];
    limiter = new RateLimiter(scope === 'address' ? { ...rule, limit: rule.limit * ADDRESS_LIMIT_FACTOR } : rule);
    map.set(name, limiter);
  }
  return limiter.take(key);
}

/** The 429 every rate-limited route answers with. */
export function tooManyRequests(what: string, retryAfterS: number): Response {
  return Response.json(
    { error: `Too many ${what}. Please wait ${retryAfterS} s and try again.`, code: 'rate_limited' },
    { status: 429, headers: { 'retry-after': String(retryAfterS) } },
  );
}
