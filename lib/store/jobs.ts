/**
 * The ingest job queue is the manuals table itself: `queued` rows are jobs; a worker claims one
 * with an atomic update, so two processes (the server's worker and the CLI) never run the same job.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './db';
import { manuals } from './schema';

/** Interrupted attempts after which a manual is failed instead of retried (it probably crashes us). */
export const MAX_ATTEMPTS = 3;

export async function claimManual(id: string): Promise<boolean> {
  const db = await getDb();
  const claimed = await db
    .update(manuals)
    .set({ status: 'parsing', progressDone: 0, progressTotal: 0, updatedAt: new Date() })
    .where(and(eq(manuals.id, id), eq(manuals.status, 'queued')))
    .returning({ id: manuals.id });
  return claimed.length === 1;
}

/**
 * The queue's order: fewest pages first (a 19-page guide does not wait for a 300-page scan), then
 * oldest first. A long manual still starts as soon as a slot is free and no shorter one waits.
 */
export async function queuedManualIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: manuals.id })
    .from(manuals)
    .where(eq(manuals.status, 'queued'))
    .orderBy(sql`coalesce(${manuals.pageCount}, 0)`, asc(manuals.createdAt));
  return rows.map((r) => r.id);
}

export async function nextQueuedManualId(skip: string[] = []): Promise<string | undefined> {
  return (await queuedManualIds()).find((id) => !skip.includes(id));
}

/**
 * Jobs that were running when their process died. Each is requeued from scratch (its partial
 * output is discarded by the caller first), or failed after MAX_ATTEMPTS interrupted runs.
 */
export async function interruptedManuals(): Promise<Array<{ id: string; attempts: number }>> {
  const db = await getDb();
  return db
    .select({ id: manuals.id, attempts: manuals.attempts })
    .from(manuals)
    .where(inArray(manuals.status, ['parsing', 'ocr', 'rendering', 'embedding', 'indexing']));
}

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
        updatedAt: new Date(),
      })
      .where(eq(manuals.id, id));
    return 'failed';
  }
  await db.update(manuals).set({ status: 'queued', attempts: next, progressDone: 0, progressTotal: 0, updatedAt: new Date() }).where(eq(manuals.id, id));
  return 'requeued';
}
