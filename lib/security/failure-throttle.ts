/**
 * Backoff after repeated failures (wrong passwords, invalid API keys): failures are counted per key
 * with the app's RateLimiter (take), and a key that reaches its limit within the window is locked
 * out — every attempt answers 429 before any password is checked — for the window, then twice as
 * long at the next lockout, and so on up to `maxLockMs`. A key whose last lockout ended more than
 * `maxLockMs` ago starts again at one window.
 *
 * The failure counts live behind RateLimiter.take (shared wherever the rate limits are); the
 * lockout times are this process's. Where several processes share the counts, each may let one
 * more attempt through before it locks too.
 */
import { RateLimiter } from './rate-limit';

export interface FailureRule {
  /** Failures allowed per window; the next attempt is refused. */
  failures: number;
  windowMs: number;
  /** The longest lockout. */
  maxLockMs: number;
}

interface Lock {
  until: number;
  strikes: number;
}

export class FailureThrottle {
  private readonly counts: RateLimiter;
  private readonly locks = new Map<string, Lock>();

  constructor(
    private readonly rule: FailureRule,
    /** Names the counts where they are shared (Postgres mode), so every server counts the same failures. */
    name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new RateLimiter({ limit: rule.failures, windowMs: rule.windowMs }, now, { name });
  }

  /** Seconds until every one of `keys` may try again; 0 when none is locked out. */
  retryAfterS(keys: readonly string[]): number {
    const t = this.now();
    let wait = 0;
    for (const key of keys) wait = Math.max(wait, (this.locks.get(key)?.until ?? 0) - t);
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  /** Counts one failure against each key; a key at its limit is locked out (the delay doubles per lockout). */
  async fail(keys: readonly string[]): Promise<void> {
    const t = this.now();
    for (const key of keys) {
      const counted = await this.counts.take(key);
      if (counted.ok && counted.remaining > 0) continue;
      const last = this.locks.get(key);
      if (last && last.until > t) continue; // already locked: the delay runs from the lockout
      const strikes = last && t - last.until < this.rule.maxLockMs ? last.strikes + 1 : 1;
      this.locks.set(key, { until: t + Math.min(this.rule.maxLockMs, this.rule.windowMs * 2 ** (strikes - 1)), strikes });
    }
    if (this.locks.size > 10_000) for (const [k, l] of this.locks) if (t - l.until > this.rule.maxLockMs) this.locks.delete(k);
  }
}
