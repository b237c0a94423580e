/**
 * The ingest job queue is the manuals table itself: `queued` rows are jobs. A worker (any
 * process, any machine) claims one with a single atomic UPDATE — on Postgres over a
 * `FOR UPDATE SKIP LOCKED` pick, so workers racing for jobs never wait on each other or take the
 * same one — and holds it under a lease (worker_id + lease_until) that it renews while it works.
 * A job whose lease ran out (its worker died or hung) is reclaimed by another worker, which
 * cleans its partial output and queues it again (lib/ingest/recovery.ts).
 *
 * Times are the database's clock (sqlNow), so machines whose clocks differ agree on leases.
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import { runtimeNumber } from '../config';
import { dbDialect, getDb, sqlNow, sqlNowPlus } from './db';
import { manuals, workers, type ManualStatus } from './tables';
import type { REEMBED_STAGES } from './schema';

/** Interrupted attempts after which a manual is failed instead of retried (it probably crashes us). */
export const MAX_ATTEMPTS = 3;

/** Statuses of a job some worker is running. */
export const RUNNING_STATUSES: ManualStatus[] = ['parsing', 'ocr', 'rendering', 'embedding', 'indexing'];

/**
 * How long a claim holds without renewal (MC_JOB_LEASE_MS, default 60 s). Workers renew every
 * quarter lease, so only a worker that is dead or stuck for a whole lease loses its job.
 */
export function jobLeaseMs(): number {
  return runtimeNumber('MC_JOB_LEASE_MS', 60_000, { integer: true });
}

/** A worker not seen for this long is listed as gone (heartbeats come every few seconds). */
const WORKER_STALE_MS = 30_000;
/** Worker rows older than this are removed, so the table does not grow with every restart. */
const WORKER_FORGET_MS = 24 * 3600_000;

const claimSet = (workerId: string) => ({
  status: 'parsing' as const,
  progressDone: 0,
  progressTotal: 0,
  workerId,
  leaseUntil: sqlNowPlus(jobLeaseMs()) as unknown as Date,
  updatedAt: new Date(),
});

/** Claims this queued manual for `workerId`; false when it is not queued (another worker has it). */
export async function claimManual(id: string, workerId: string): Promise<boolean> {
  const db = await getDb();
  const claimed = await db
    .update(manuals)
    .set(claimSet(workerId))
    .where(and(eq(manuals.id, id), eq(manuals.status, 'queued')))
    .returning({ id: manuals.id });
  return claimed.length === 1;
}

/**
 * The queue's order: fewest pages first (a 19-page guide does not wait for a 300-page scan), then
 * oldest first. A long manual still starts as soon as a slot is free and no shorter one waits.
 */
const QUEUE_ORDER = [sql`coalesce(${manuals.pageCount}, 0)`, asc(manuals.createdAt)];

/** Queued manuals in the order workers will take them (for "2nd in line"). */
export async function queuedManualIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: manuals.id })
    .from(manuals)
    .where(eq(manuals.status, 'queued'))
    .orderBy(...QUEUE_ORDER);
  return rows.map((r) => r.id);
}

/** Claims the next queued manual (smallest first) for `workerId`; undefined when the queue is empty. */
export async function claimNextManual(workerId: string): Promise<string | undefined> {
  const db = await getDb();
  const oldestQueued = lockForClaim(
    db
      .select({ id: manuals.id })
      .from(manuals)
      .where(eq(manuals.status, 'queued'))
      .orderBy(...QUEUE_ORDER)
      .limit(1),
  );
  const [row] = await db
    .update(manuals)
    .set(claimSet(workerId))
    // The status test again: on SQLite (no row locks) it is what makes the claim exclusive.
    .where(and(eq(manuals.id, sql`(${oldestQueued})`), eq(manuals.status, 'queued')))
    .returning({ id: manuals.id });
  return row?.id;
}

/** A job runs: an ingest stage, or the re-embedding of a ready manual. */
const jobRunning = () => or(inArray(manuals.status, RUNNING_STATUSES), isNotNull(manuals.reembedStage));

/** Extends the lease of a job this worker still holds; false when it lost it (reclaimed, deleted, done). */
export async function renewLease(id: string, workerId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(manuals)
    .set({ leaseUntil: sqlNowPlus(jobLeaseMs()) as unknown as Date })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId), jobRunning()))
    .returning({ id: manuals.id });
  return rows.length === 1;
}

/** Lets go of a job that ended (ready or failed): no lease is left for anyone to reclaim. */
export async function endLease(id: string, workerId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(manuals)
    .set({ workerId: null, leaseUntil: null })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId)));
}

/** Whether `workerId` still holds the job (checked before its result is published). */
export async function holdsLease(id: string, workerId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: manuals.id })
    .from(manuals)
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId), jobRunning()))
    .limit(1);
  return !!row;
}

/** Worker ids that hold running jobs (recovery checks which of them run on this host and died). */
export async function runningWorkerIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ workerId: manuals.workerId })
    .from(manuals)
    .where(and(inArray(manuals.status, RUNNING_STATUSES), isNotNull(manuals.workerId)));
  return rows.map((r) => r.workerId!);
}

/**
 * Takes over running jobs whose worker is gone — lease expired, no lease at all (a crash before
 * leases existed, or a status set by hand), or a worker known dead (`deadWorkerIds`) — for
 * `workerId` to clean up, never one `workerId` holds: the caller discards their partial output, then calls requeueInterrupted.
 * Each is taken by exactly one reclaimer (the lease moves to it in the same statement).
 */
export async function claimInterrupted(workerId: string, deadWorkerIds: string[] = []): Promise<Array<{ id: string; attempts: number }>> {
  const db = await getDb();
  const expired = or(
    isNull(manuals.leaseUntil),
    lt(manuals.leaseUntil, sqlNow() as unknown as Date),
    deadWorkerIds.length ? inArray(manuals.workerId, deadWorkerIds) : undefined,
  );
  // Never a job the reclaimer holds itself: it is still running it (a stall past the lease), and
  // taking it back would clean its output under it and queue it a second time.
  const gone = and(expired, or(isNull(manuals.workerId), ne(manuals.workerId, workerId)));
  const candidates = lockForClaim(
    db
      .select({ id: manuals.id })
      .from(manuals)
      .where(and(inArray(manuals.status, RUNNING_STATUSES), gone))
      .limit(50),
  );
  return db
    .update(manuals)
    .set({ workerId, leaseUntil: sqlNowPlus(jobLeaseMs()) as unknown as Date })
    .where(and(idAmong(candidates), inArray(manuals.status, RUNNING_STATUSES), gone))
    .returning({ id: manuals.id, attempts: manuals.attempts });
}

/** The job's partial output is gone: queue it again, or fail it after MAX_ATTEMPTS interruptions. */
export async function requeueInterrupted(id: string, attempts: number): Promise<'requeued' | 'failed'> {
  const db = await getDb();
  const next = attempts + 1;
  if (next >= MAX_ATTEMPTS) {
    await db
      .update(manuals)
      .set({
        status: 'failed',
        error: `Processing was interrupted ${next} times (the server stopped or crashed). Delete and upload the file again to retry.`,
        errorCode: 'interrupted',
        attempts: next,
        password: null,
        workerId: null,
        leaseUntil: null,
        updatedAt: new Date(),
      })
      .where(eq(manuals.id, id));
    return 'failed';
  }
  await db
    .update(manuals)
    .set({ status: 'queued', attempts: next, progressDone: 0, progressTotal: 0, workerId: null, leaseUntil: null, updatedAt: new Date() })
    .where(eq(manuals.id, id));
  return 'requeued';
}

/**
 * Fails a running ingest job `workerId` still holds, at once and with `error` (its worker was
 * killed over a memory limit: running it again would only do the same). False when the job is no
 * longer that worker's (it ended, or another worker reclaimed it).
 */
export async function failHeldJob(id: string, workerId: string, error: string, errorCode: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(manuals)
    .set({ status: 'failed', error, errorCode, progressDone: 0, progressTotal: 0, password: null, workerId: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId), inArray(manuals.status, RUNNING_STATUSES)))
    .returning({ id: manuals.id });
  return rows.length === 1;
}

// ───────────────────────────── re-embedding ─────────────────────────────
// A ready manual whose vectors another embedder made is a re-embed job (lib/ingest/reembed.ts).
// It stays `ready` (searchable on its old vectors) while it runs; its lease and progress use the
// same columns as an ingest, and `reembed_stage` says which stage it is in. These updates leave
// updated_at alone: the lexical index keys its cache on it, and the text does not change.

export type ReembedStage = (typeof REEMBED_STAGES)[number];

/** Ready manuals whose vectors were not made with `fingerprint` (or with an unknown one). */
const staleFor = (fingerprint: string) => and(eq(manuals.status, 'ready'), or(isNull(manuals.indexFingerprint), ne(manuals.indexFingerprint, fingerprint)));

/** How many ready manuals wait for a re-embed with these embedders. */
export async function countStaleManuals(fingerprint: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(manuals).where(staleFor(fingerprint));
  return Number(row?.n ?? 0);
}

/**
 * Claims the next manual to re-embed for `fingerprint` (smallest first): one no worker holds, or
 * whose worker's lease ran out (it died: the job starts again; a re-embed leaves nothing to clean).
 */
export async function claimNextReembed(workerId: string, fingerprint: string): Promise<string | undefined> {
  const db = await getDb();
  const free = or(isNull(manuals.leaseUntil), lt(manuals.leaseUntil, sqlNow() as unknown as Date));
  const next = lockForClaim(
    db
      .select({ id: manuals.id })
      .from(manuals)
      .where(and(staleFor(fingerprint), free))
      .orderBy(...QUEUE_ORDER)
      .limit(1),
  );
  const [row] = await db
    .update(manuals)
    .set({ reembedStage: 'embedding', progressDone: 0, progressTotal: 0, workerId, leaseUntil: sqlNowPlus(jobLeaseMs()) as unknown as Date })
    .where(and(eq(manuals.id, sql`(${next})`), staleFor(fingerprint), free))
    .returning({ id: manuals.id });
  return row?.id;
}

/** Progress of a re-embed this worker holds. */
export async function reembedProgress(id: string, workerId: string, stage: ReembedStage, done: number, total: number): Promise<void> {
  const db = await getDb();
  await db
    .update(manuals)
    .set({ reembedStage: stage, progressDone: done, progressTotal: total })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId)));
}

/** The manual's new vectors are written: record their fingerprint and end the job. False if the job was lost. */
export async function finishReembed(id: string, workerId: string, fingerprint: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(manuals)
    .set({ indexFingerprint: fingerprint, reembedStage: null, progressDone: 0, progressTotal: 0, workerId: null, leaseUntil: null })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId), eq(manuals.status, 'ready')))
    .returning({ id: manuals.id });
  return rows.length === 1;
}

/** A re-embed failed: the manual keeps its old vectors and is tried again once the lease has run out. */
export async function abandonReembed(id: string, workerId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(manuals)
    .set({ reembedStage: null, progressDone: 0, progressTotal: 0, workerId: null })
    .where(and(eq(manuals.id, id), eq(manuals.workerId, workerId)));
}

/** The index was emptied (vectors of a new size), or lost these manuals' vectors: their vectors are unknown now, so the worker re-embeds them. */
export async function forgetIndexFingerprints(ids?: string[]): Promise<void> {
  const db = await getDb();
  await db
    .update(manuals)
    .set({ indexFingerprint: null })
    .where(and(isNotNull(manuals.indexFingerprint), ids ? inArray(manuals.id, ids) : undefined));
}

/** The fingerprints the library's ready manuals were embedded with, and how many each (/api/health). */
export async function indexFingerprints(): Promise<Array<{ fingerprint: string | null; manuals: number }>> {
  const db = await getDb();
  const rows = await db
    .select({ fingerprint: manuals.indexFingerprint, n: count() })
    .from(manuals)
    .where(eq(manuals.status, 'ready'))
    .groupBy(manuals.indexFingerprint);
  return rows.map((r) => ({ fingerprint: r.fingerprint, manuals: Number(r.n) }));
}

// ───────────────────────────── workers ─────────────────────────────

export interface WorkerInfo {
  id: string;
  host: string;
  pid: number;
  startedAt: Date;
}

/** A worker says it is alive (every poll); old rows of long-gone workers are dropped on the way. */
export async function heartbeat(worker: WorkerInfo): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db
    .insert(workers)
    .values({ ...worker, lastSeenAt: now })
    .onConflictDoUpdate({ target: workers.id, set: { lastSeenAt: now } });
  await db.delete(workers).where(lt(workers.lastSeenAt, new Date(now.getTime() - WORKER_FORGET_MS)));
}

export async function forgetWorker(id: string): Promise<void> {
  const db = await getDb();
  await db.delete(workers).where(eq(workers.id, id));
}

export interface QueueReport {
  queued: number;
  running: number;
  failed: number;
  /** Workers seen recently, with the jobs they hold. */
  workers: Array<{ id: string; host: string; pid: number; lastSeenAt: string; jobs: Array<{ id: string; status: string; leaseUntil: string | null }> }>;
  /** Running jobs whose lease has run out: waiting to be reclaimed. */
  expired: number;
}

/** Jobs waiting, running and per worker: the queue part of /api/health. */
export async function queueReport(): Promise<QueueReport> {
  const db = await getDb();
  const [byStatus, live, running] = await Promise.all([
    db.select({ status: manuals.status, n: count() }).from(manuals).groupBy(manuals.status),
    db
      .select()
      .from(workers)
      .where(gt(workers.lastSeenAt, new Date(Date.now() - WORKER_STALE_MS)))
      .orderBy(desc(workers.startedAt)),
    db
      .select({
        id: manuals.id,
        status: manuals.status,
        workerId: manuals.workerId,
        leaseUntil: manuals.leaseUntil,
        expired: sql<unknown>`${manuals.leaseUntil} < ${sqlNow()}`,
      })
      .from(manuals)
      .where(inArray(manuals.status, RUNNING_STATUSES)),
  ]);
  const n = (s: ManualStatus[]) => byStatus.filter((r) => s.includes(r.status)).reduce((a, r) => a + Number(r.n), 0);
  return {
    queued: n(['queued']),
    running: n(RUNNING_STATUSES),
    failed: n(['failed']),
    expired: running.filter((j) => j.leaseUntil === null || j.expired === true || Number(j.expired) === 1).length,
    workers: live.map((w) => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      lastSeenAt: w.lastSeenAt.toISOString(),
      jobs: running.filter((j) => j.workerId === w.id).map((j) => ({ id: j.id, status: j.status, leaseUntil: j.leaseUntil?.toISOString() ?? null })),
    })),
  };
}

/**
 * `manuals.id IN (subquery)`. On Postgres as `= ANY(ARRAY(subquery))`: the locking subquery then
 * runs once, before the update. As a plain IN (a semi-join), 12 concurrent claimers of a LIMIT 1
 * pick were seen to get 1 job of 6 waiting; claimNextManual uses the same one-shot form (`= (…)`).
 */
function idAmong(subquery: SQLWrapper) {
  return dbDialect() === 'postgres' ? sql`${manuals.id} = ANY(ARRAY(${subquery}))` : inArray(manuals.id, subquery);
}

/**
 * Postgres: lock the picked rows and skip those another worker has locked (its claim is in
 * flight). SQLite has one writer at a time, so its UPDATE is already exclusive.
 */
function lockForClaim<T>(query: T): T {
  if (dbDialect() !== 'postgres') return query;
  return (query as unknown as { for(strength: 'update', config: { skipLocked: true }): T }).for('update', { skipLocked: true });
}
