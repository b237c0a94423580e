/**
 * Rate-limit windows and in-flight slots kept in the database, so several servers on one Postgres
 * enforce one limit (lib/security/rate-limit.ts chooses this store on Postgres; SQLite mode serves
 * from one process and keeps its limits in memory). Each operation is atomic across servers:
 * a window is counted up by one upsert that refuses past the limit; a slot is taken under a
 * transaction-scoped advisory lock on its bucket, so two servers cannot both take the last one.
 * Lockouts (lib/security/failure-throttle.ts) are rows of the same table: the lock's end in
 * `window_start`, its strike count in `count`, under a bucket of their own.
 */
import { and, count, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from './db';
import { inFlight, rateLimits } from './tables';

/** What the limiters need from a shared store (one per database connection pool). */
export interface LimitStore {
  /** Counts one event in `bucket`'s window starting at `windowStart`; the new count, or null when it is already at `limit`. */
  takeInWindow(bucket: string, windowStart: number, limit: number): Promise<number | null>;
  /** Uncounts one event of `bucket`'s window starting at `windowStart` (never below zero). */
  giveBack(bucket: string, windowStart: number): Promise<void>;
  /** Forgets windows that ended before `before` (housekeeping). */
  forgetWindows(before: number): Promise<void>;
  /** Takes slot `id` in `bucket` unless `cap` unexpired slots are taken; slots expire at `expiresAt`. */
  acquireSlot(bucket: string, id: string, cap: number, now: number, expiresAt: number): Promise<boolean>;
  releaseSlot(id: string): Promise<void>;
  /** Records a lockout of `bucket` until `until` (ms), its `strikes`-th in a row. */
  setLock(bucket: string, until: number, strikes: number): Promise<void>;
  /** The latest lockout recorded for `bucket`, if any (ended or not). */
  lastLock(bucket: string): Promise<{ until: number; strikes: number } | undefined>;
}

/** The limit store on `db` (a Postgres database; the SQL is Postgres's). */
export function databaseLimitStore(db: Db): LimitStore {
  return {
    async takeInWindow(bucket, windowStart, limit) {
      const rows = await db
        .insert(rateLimits)
        .values({ bucket, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: [rateLimits.bucket, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
          setWhere: lt(rateLimits.count, limit),
        })
        .returning({ count: rateLimits.count });
      return rows[0]?.count ?? null;
    },
    async giveBack(bucket, windowStart) {
      await db
        .update(rateLimits)
        .set({ count: sql`${rateLimits.count} - 1` })
        .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.windowStart, windowStart), gt(rateLimits.count, 0)));
    },
    async forgetWindows(before) {
      await db.delete(rateLimits).where(lt(rateLimits.windowStart, before));
    },
    async acquireSlot(bucket, id, cap, now, expiresAt) {
      return db.transaction(async (tx) => {
        // Serialises the slots of one bucket across servers until this transaction ends.
        await (tx as unknown as { execute(query: SQL): Promise<unknown> }).execute(sql`select pg_advisory_xact_lock(hashtext(${`in_flight:${bucket}`}))`);
        await tx.delete(inFlight).where(and(eq(inFlight.bucket, bucket), lt(inFlight.expiresAt, now)));
        const [{ taken }] = await tx.select({ taken: count() }).from(inFlight).where(eq(inFlight.bucket, bucket));
        if (Number(taken) >= cap) return false;
        await tx.insert(inFlight).values({ id, bucket, expiresAt });
        return true;
      });
    },
    async releaseSlot(id) {
      await db.delete(inFlight).where(eq(inFlight.id, id));
    },
    async setLock(bucket, until, strikes) {
      await db.insert(rateLimits).values({ bucket, windowStart: until, count: strikes }).onConflictDoNothing();
    },
    async lastLock(bucket) {
      const [row] = await db
        .select({ until: rateLimits.windowStart, strikes: rateLimits.count })
        .from(rateLimits)
        .where(eq(rateLimits.bucket, bucket))
        .orderBy(desc(rateLimits.windowStart))
        .limit(1);
      return row;
    },
  };
}
