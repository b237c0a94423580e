/**
 * Backoff after repeated failures (wrong passwords, invalid API keys): failures are counted per key
 * with the app's RateLimiter — before the check with `begin` (sign-in: however many attempts arrive
 * at once, at most the limit are checked), or after it with `fail` (invalid API keys) — and a key
 * that reaches its limit within the window is locked out — every attempt answers 429 before
 * anything is checked — for the window, then twice as long at the next lockout, and so on up to
 * `maxLockMs`. A key whose last lockout ended more than
 * `maxLockMs` ago starts again at one window.
 *
 * Failure counts and lockouts live where the rate limits do (lib/security/rate-limit.ts): in this
 * process's memory with SQLite, in Postgres otherwise, so every server refuses a key another
 * server locked out — N servers enforce one limit, not one each.
 */
import type { LimitStore } from '../store/limits';
import { type LimiterOptions, RateLimiter, storeOf } from './rate-limit';

export interface FailureRule {
  /** Failures allowed per window; the next attempt is refused. */
  failures: number;
  windowMs: number;
  /** The longest lockout. */
  maxLockMs: number;
}

/** An attempt counted by `begin`; settle it once, with its outcome. */
export interface Attempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

interface Lock {
  until: number;
  strikes: number;
}

export class FailureThrottle {
  private readonly counts: RateLimiter;
  /** Lockouts when they live in memory. */
  private readonly locks = new Map<string, Lock>();

  constructor(
    private readonly rule: FailureRule,
    /** Names the counts and lockouts where they are shared (Postgres mode), so every server sees the same. */
    private readonly name: string,
    private readonly now: () => number = Date.now,
    private readonly options: Pick<LimiterOptions, 'store'> = {},
  ) {
    this.counts = new RateLimiter({ limit: rule.failures, windowMs: rule.windowMs }, now, { name, store: options.store });
  }

  /** Seconds until every one of `keys` may try again; 0 when none is locked out. */
  async retryAfterS(keys: readonly string[]): Promise<number> {
    const store = await storeOf(this.options);
    const t = this.now();
    let wait = 0;
    for (const key of keys) wait = Math.max(wait, ((await this.lockOf(store, key))?.until ?? 0) - t);
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  /**
   * Counts an attempt against every key before it is checked, so a burst cannot run more checks
   * than the limit: refused (seconds to wait) while a key is locked out or has its limit of
   * attempts counted in the window (failures and attempts still being checked); otherwise an
   * attempt to settle with its outcome.
   */
  async begin(keys: readonly string[]): Promise<{ retryAfterS: number } | { attempt: Attempt }> {
    const locked = await this.retryAfterS(keys);
    if (locked) return { retryAfterS: locked };
    const taken: Array<{ key: string; remaining: number; giveBack: () => Promise<void> }> = [];
    for (const key of keys) {
      const reserved = await this.counts.reserve(key);
      if (!reserved.ok) {
        await Promise.all(taken.map((t) => t.giveBack()));
        return { retryAfterS: reserved.retryAfterS };
      }
      taken.push({ key, ...reserved });
    }
    return {
      attempt: {
        // A success does not count: people behind one address may all sign in.
        succeeded: async () => void (await Promise.all(taken.map((t) => t.giveBack()))),
        // The failure that filled a key's window locks it out.
        failed: async () => {
          const store = await storeOf(this.options);
          for (const t of taken) if (t.remaining === 0) await this.lockOut(store, t.key);
        },
      },
    };
  }

  /** Counts one failure against each key, after the fact; a key at its limit is locked out. */
  async fail(keys: readonly string[]): Promise<void> {
    const store = await storeOf(this.options);
    for (const key of keys) {
      const counted = await this.counts.take(key);
      if (counted.ok && counted.remaining > 0) continue;
      await this.lockOut(store, key);
    }
  }

  /** Locks `key` out for the window, twice as long as its last lockout if that ended recently. */
  private async lockOut(store: LimitStore | null, key: string): Promise<void> {
    const t = this.now();
    const last = await this.lockOf(store, key);
    if (last && last.until > t) return; // already locked: the delay runs from the lockout
    const strikes = last && t - last.until < this.rule.maxLockMs ? last.strikes + 1 : 1;
    const lock = { until: t + Math.min(this.rule.maxLockMs, this.rule.windowMs * 2 ** (strikes - 1)), strikes };
    if (store) await store.setLock(this.lockBucket(key), lock.until, lock.strikes);
    else this.locks.set(key, lock);
    if (this.locks.size > 10_000) for (const [k, l] of this.locks) if (t - l.until > this.rule.maxLockMs) this.locks.delete(k);
  }

  private lockBucket(key: string): string {
    return `${this.name}:lock:${key}`;
  }

  private async lockOf(store: LimitStore | null, key: string): Promise<Lock | undefined> {
    return store ? store.lastLock(this.lockBucket(key)) : this.locks.get(key);
  }
}
