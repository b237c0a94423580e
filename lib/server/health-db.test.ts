/**
 * /api/health checks the database for real — a read and a write — so a corrupt app.db is
 * reported (ok: false, HTTP 503, the reason) instead of "ok" while every page answers 500. The
 * database is this test file's scratch DATA_DIR/app.db (test/setup.ts), corrupted on purpose.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/health/route';
import { checkDb, closeDb, getDb } from '../store/db';

const file = path.join(process.env.DATA_DIR!, 'app.db');
const PAGE = 4096;

afterAll(() => closeDb());

/** Everything in the main file (no WAL left), and the connections closed, so the bytes on disk are the database. */
async function flushAndClose(): Promise<void> {
  await (await getDb()).run(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
  await closeDb();
}

async function health(): Promise<{ status: number; body: { ok: boolean; db: { ok: boolean; error?: string } } }> {
  const res = await GET();
  return { status: res.status, body: await res.json() };
}

describe('/api/health and a corrupt database', () => {
  it('a healthy database: ok, 200, after a read and a rolled-back write that leaves nothing behind', async () => {
    const db = await getDb();
    expect(await checkDb()).toMatchObject({ ok: true, dialect: 'sqlite', target: file });
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.db.ok).toBe(true);
    // The probe row is rolled back: no worker appears.
    expect((await db.all(sql`select id from workers`)).length).toBe(0);
  });

  // manuals: what the check reads (and every page of the app); workers: where it writes its rolled-back row.
  it.each(['manuals', 'workers'])(
    'a table whose pages are garbage (%s): the database still opens and answers `select 1`, but health says why it is not ok (503)',
    async (table) => {
      await closeDb();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      const db = await getDb(); // a fresh database, migrated
      const [{ rootpage }] = (await db.all(sql`select rootpage from sqlite_schema where name = ${table}`)) as Array<{ rootpage: number }>;
      expect(await db.get(sql`PRAGMA page_size`)).toEqual({ page_size: PAGE });
      await flushAndClose();
      const bytes = fs.readFileSync(file);
      for (let i = 0; i < PAGE; i++) bytes[(rootpage - 1) * PAGE + i] = (i * 7919 + 13) & 0xff;
      fs.writeFileSync(file, bytes);

      // What the old check ran still passes: the file opens (migrations read their own table) and `select 1` answers.
      await expect((await getDb()).run(sql`select 1`)).resolves.toBeDefined();
      const check = await checkDb();
      expect(check).toMatchObject({ ok: false, target: file });
      expect(check.error).toMatch(/malformed|SQLITE_CORRUPT/i);
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.ok).toBe(false);
      expect(body.db.error).toMatch(/malformed|SQLITE_CORRUPT/i);
    },
  );

  it('a file that is not a database at all: 503 with the reason', async () => {
    await closeDb();
    fs.writeFileSync(file, Buffer.alloc(8 * PAGE, 'not a database '));
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.db.ok).toBe(false);
    expect(body.db.error).toMatch(/not a database|SQLITE_NOTADB/i);
  });
});
