/**
 * Rate limits per owner and per client address, and caps on requests in flight: a runaway script
 * or a stuck retry loop cannot monopolise the agent or fill the disk, and a client minting new
 * cookies still hits its address's limit.
 *
 * Where the counts live follows the database: with SQLite one process serves the instance, so
 * they live in memory (a sliding window; they reset on restart, which is acceptable for abuse
 * protection). With Postgres several servers may share it, so they live in Postgres
 * (lib/store/limits.ts: fixed windows counted up atomically, in-flight slots under a lock) and N
 * servers enforce one limit instead of N.
 */
import { randomUUID } from 'node:crypto';
import { getConfig, runtimeNumber } from '../config';
import type { LimitStore } from '../store/limits';

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
/** `at`: where an event was counted (its window's start in a shared store, its time in memory). */
type Counted = { ok: true; remaining: number; at: number } | { ok: false; retryAfterS: number };
/** A taken event that can be given back (an attempt that turned out not to count). */
export type Reservation = { ok: true; remaining: number; giveBack: () => Promise<void> } | { ok: false; retryAfterS: number };

export interface LimiterOptions {
  /**
   * Names this limit's buckets in the shared store: limiters with the same name (on any server)
   * count together. Defaults to the rule (`30/60000`), so name every limit whose keys could
   * collide with another limit's of the same rule.
   */
  name?: string;
  /** Where counts live: by default Postgres when the app runs on it, else memory; null forces memory. */
  store?: LimitStore | null;
}

/** Shared windows are forgotten a day after they started: no limit here has a longer window. */
const MAX_WINDOW_MS = 24 * 3600_000;
/** Takes between two sweeps of old windows, per limiter. */
const SWEEP_EVERY = 1000;

const shared = globalThis as unknown as { __mcLimitStore?: Promise<LimitStore | null> };

/** The store of shared limits: the database's on Postgres, null (memory) on SQLite. */
function defaultStore(): Promise<LimitStore | null> {
  if (getConfig().database.dialect !== 'postgres') return Promise.resolve(null);
  const made = (shared.__mcLimitStore ??= (async () => {
    const [{ getDb }, { databaseLimitStore }] = await Promise.all([import('../store/db'), import('../store/limits')]);
    return databaseLimitStore(await getDb());
  })());
  // A database that was not reachable is tried again on the next request.
  made.catch(() => {
    if (shared.__mcLimitStore === made) shared.__mcLimitStore = undefined;
  });
  return made;
}

/** The store a limiter with these options counts in (null: this process's memory). */
export function storeOf(options: LimiterOptions): Promise<LimitStore | null> {
  return options.store !== undefined ? Promise.resolve(options.store) : defaultStore();
}

/**
 * `limit` events per `windowMs` per key. In memory the window slides; in a shared store it is
 * fixed (aligned to multiples of windowMs), so a burst across a window boundary may reach twice
 * the limit for a moment — never more.
 *
 * `take` is async (a shared store is a database round trip): `if (!(await limiter.take(key)).ok)`.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly name: string;
  private takes = 0;

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number = Date.now,
    private readonly options: LimiterOptions = {},
  ) {
    if (rule.windowMs > MAX_WINDOW_MS) throw new Error(`A rate-limit window is at most a day, got ${rule.windowMs} ms`);
    this.name = options.name ?? `${rule.limit}/${rule.windowMs}`;
  }

  async take(key: string): Promise<RateResult> {
    const taken = await this.reserve(key);
    return taken.ok ? { ok: true, remaining: taken.remaining } : taken;
  }

  /**
   * Takes one event like `take`, atomically (concurrent reservations never pass the limit), and
   * lets the caller give it back once it knows the event should not count.
   */
  async reserve(key: string): Promise<Reservation> {
    const store = await storeOf(this.options);
    const taken = store ? await this.takeShared(store, key) : this.takeInMemory(key);
    if (!taken.ok) return taken;
    let given = false;
    const giveBack = async () => {
      if (given) return;
      given = true;
      if (store) return store.giveBack(`${this.name}:${key}`, taken.at);
      const hits = this.hits.get(key) ?? [];
      const i = hits.lastIndexOf(taken.at);
      if (i >= 0) hits.splice(i, 1);
    };
    return { ok: true, remaining: taken.remaining, giveBack };
  }

  private async takeShared(store: LimitStore, key: string): Promise<Counted> {
    const t = this.now();
    const windowStart = Math.floor(t / this.rule.windowMs) * this.rule.windowMs;
    if (++this.takes % SWEEP_EVERY === 0)
      void store.forgetWindows(t - MAX_WINDOW_MS).catch((err) => console.error('[rate-limit] could not forget old windows', err));
    const counted = await store.takeInWindow(`${this.name}:${key}`, windowStart, this.rule.limit);
    if (counted === null) return { ok: false, retryAfterS: Math.max(1, Math.ceil((windowStart + this.rule.windowMs - t) / 1000)) };
    return { ok: true, remaining: this.rule.limit - counted, at: windowStart };
  }

  private takeInMemory(key: string): Counted {
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
    return { ok: true, remaining: this.rule.limit - recent.length, at: t };
  }
}

/** Ends a request's slot; calling it again does nothing. */
export type ReleaseSlot = () => Promise<void>;

/**
 * At most `cap` requests in flight per key. `acquire` answers at once — a slot, or null when
 * `cap` requests of that key are running — and never queues. In a shared store a slot expires
 * after `ttlMs` (a server that died holding it gives it back then); in memory it lasts until released.
 */
export class InFlightLimiter {
  private readonly running = new Map<string, number>();
  private readonly name: string;

  constructor(
    private readonly cap: number,
    private readonly options: LimiterOptions & { ttlMs?: number; now?: () => number } = {},
  ) {
    this.name = options.name ?? `in-flight/${cap}`;
  }

  async acquire(key: string): Promise<ReleaseSlot | null> {
    const store = await storeOf(this.options);
    let released = false;
    if (store) {
      const id = randomUUID();
      const now = (this.options.now ?? Date.now)();
      if (!(await store.acquireSlot(`${this.name}:${key}`, id, this.cap, now, now + (this.options.ttlMs ?? 600_000)))) return null;
      return async () => {
        if (released) return;
        released = true;
        await store.releaseSlot(id).catch((err) => console.error('[rate-limit] could not release an in-flight slot', err));
      };
    }
    const n = this.running.get(key) ?? 0;
    if (n >= this.cap) return null;
    this.running.set(key, n + 1);
    return async () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }
}

type Kind = keyof typeof LIMITS;
const limiters = globalThis as unknown as { __mcLimiters?: Map<string, RateLimiter> };

/** Takes one event for `key` (an owner id, or an address with scope 'address'). */
export function rateLimit(kind: Kind, key: string, scope: 'owner' | 'address' = 'owner'): Promise<RateResult> {
  const map = (limiters.__mcLimiters ??= new Map());
  const name = `${scope}:${kind}`;
  let limiter = map.get(name);
  if (!limiter) {
    const rule = LIMITS[kind];
    limiter = new RateLimiter(scope === 'address' ? { ...rule, limit: rule.limit * ADDRESS_LIMIT_FACTOR } : rule, Date.now, { name });
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
