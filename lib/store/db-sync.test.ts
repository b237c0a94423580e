/**
 * Commits do not wait for the disk: every pooled connection, the ones a transaction opens beside
 * the first included, runs with synchronous = NORMAL (1), WAL's recommended setting. With the
 * default (FULL, 2) each commit fsyncs on the thread that serves requests, and under load every
 * request, /api/health included, queued behind those flushes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from './db';

afterAll(() => closeDb());

describe('SQLite commits', () => {
  it('every connection commits without an fsync (synchronous = NORMAL), inside and outside transactions', async () => {
    const db = await getDb();
    expect(await db.get(sql`PRAGMA synchronous`)).toEqual({ synchronous: 1 });
    // A transaction holds its connection: the read beside it runs on another one the pool opens.
    await db.transaction(async (tx) => {
      expect(await tx.get(sql`PRAGMA synchronous`)).toEqual({ synchronous: 1 });
      expect(await db.get(sql`PRAGMA synchronous`)).toEqual({ synchronous: 1 });
    });
  });
});
