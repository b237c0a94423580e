// Shared limits: two limiters on one Postgres — as two servers would have, each with its
// own connection pool — enforce one limit. On a fresh database on TEST_DATABASE_URL's server
// (skipped with the reason when there is none, except in CI, where it must run).
import { afterAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from '../store/testing/postgres';

const database = await freshTestDatabase();
if ('url' in database) {
  process.env.DATABASE_URL = database.url;
  const { getDb, closeDb } = await import('../store/db');
  const { databaseLimitStore } = await import('../store/limits');
  const { InFlightLimiter, RateLimiter } = await import('./rate-limit');
  const { FailureThrottle } = await import('./failure-throttle');
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const schema = await import('../store/schema-pg');
  type Db = Awaited<ReturnType<typeof getDb>>;

  await getDb(); // migrates the fresh database
  // "Server B": a second pool and Drizzle instance on the same database.
  const poolB = new pg.Pool({ connectionString: database.url, max: 4 });
  const dbB = drizzle(poolB, { schema }) as unknown as Db;
  const storeA = databaseLimitStore(await getDb());
  const storeB = databaseLimitStore(dbB);
  afterAll(async () => {
    await poolB.end();
    await closeDb();
    await database.drop();
  });

  describe('limits shared through Postgres (two servers)', () => {
    it('counts one rate limit across both servers, and says when the window ends', async () => {
      let now = 1_800_000_000_000 + 15_000; // 15 s into a minute
      const rule = { limit: 5, windowMs: 60_000 };
      const a = new RateLimiter(rule, () => now, { name: 'test:ask', store: storeA });
      const b = new RateLimiter(rule, () => now, { name: 'test:ask', store: storeB });
      // Ten concurrent takes, half on each server: exactly five pass.
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('owner-1')));
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(results.filter((r) => !r.ok)).toEqual(Array(5).fill({ ok: false, retryAfterS: 45 }));
      expect((await a.take('owner-2')).ok).toBe(true); // another key has its own count
      // The default store on Postgres is the database's: a limiter without `store` counts with them.
      const c = new RateLimiter(rule, () => now, { name: 'test:ask' });
      expect((await c.take('owner-1')).ok).toBe(false);
      now += 45_000; // the next window
      expect(await b.take('owner-1')).toEqual({ ok: true, remaining: 4 });
    });

    it('caps requests in flight across both servers; a released or expired slot frees one', async () => {
      let now = 1_800_000_000_000;
      const a = new InFlightLimiter(3, { name: 'test:in-flight', store: storeA, ttlMs: 60_000, now: () => now });
      const b = new InFlightLimiter(3, { name: 'test:in-flight', store: storeB, ttlMs: 60_000, now: () => now });
      const slots = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).acquire('key-1')));
      const held = slots.filter((s) => s !== null);
      expect(held).toHaveLength(3);
      expect(await a.acquire('key-2')).not.toBeNull();
      await held[0]!();
      expect(await b.acquire('key-1')).not.toBeNull(); // the released slot, taken on the other server
      expect(await a.acquire('key-1')).toBeNull();
      now += 60_001; // a server died holding its slots: they expire
      expect(await a.acquire('key-1')).not.toBeNull();
    });

    it('locks a key out on every server once their failures together reach the limit, with the doubling lockout shared', async () => {
      // Wrong passwords or invalid keys split over two servers: 30 a minute in all, not 30 each.
      let now = 1_800_000_000_000;
      const rule = { failures: 30, windowMs: 60_000, maxLockMs: 15 * 60_000 };
      const a = new FailureThrottle(rule, 'test:failures', () => now, { store: storeA });
      const b = new FailureThrottle(rule, 'test:failures', () => now, { store: storeB });
      const burst = () => Promise.all(Array.from({ length: rule.failures }, (_, i) => (i % 2 ? a : b).fail(['address:192.0.2.9'])));
      await burst();
      expect(await a.retryAfterS(['address:192.0.2.9'])).toBe(60);
      expect(await b.retryAfterS(['address:192.0.2.9'])).toBe(60);
      expect(await b.retryAfterS(['address:192.0.2.10'])).toBe(0);
      // The next lockout, reached the same way after the first ended, is twice as long on both.
      now += 60_000;
      expect(await b.retryAfterS(['address:192.0.2.9'])).toBe(0);
      await burst();
      expect(await a.retryAfterS(['address:192.0.2.9'])).toBe(120);
      expect(await b.retryAfterS(['address:192.0.2.9'])).toBe(120);
    });

    it('counts sign-in attempts before their check across both servers: of 100 at once, 30 are checked; a success gives its count back', async () => {
      let now = 1_800_000_000_000 + 5_000;
      const rule = { failures: 30, windowMs: 60_000, maxLockMs: 15 * 60_000 };
      const a = new FailureThrottle(rule, 'test:sign-in', () => now, { store: storeA });
      const b = new FailureThrottle(rule, 'test:sign-in', () => now, { store: storeB });
      const keys = ['account:admin', 'address:192.0.2.20'];
      const begun = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).begin(keys)));
      const attempts = begun.flatMap((x) => ('attempt' in x ? [x.attempt] : []));
      expect(attempts).toHaveLength(30);
      expect(begun.filter((x) => 'retryAfterS' in x && x.retryAfterS === 55)).toHaveLength(70);
      await attempts[0].succeeded();
      const again = await a.begin(keys);
      expect('attempt' in again).toBe(true);
      for (const attempt of attempts.slice(1)) await attempt.failed();
      if ('attempt' in again) await again.attempt.failed();
      // Thirty failures: locked out on both servers for a minute from the last.
      now += 30_000;
      expect(await a.retryAfterS(keys)).toBe(30);
      expect(await b.begin(keys)).toEqual({ retryAfterS: 30 });
    });
  });
} else {
  describe('limits shared through Postgres', () => {
    it.skip(`skipped: ${database.skip}`, () => {});
  });
}
