/**
 * A corrupt app.db at start: the server's start (instrumentation.ts → startServer) must not fail,
 * or every path, health included, answers a bare 500. It starts, /api/health answers 503 with the
 * reason in `db.error`, and pages get the same reason (databaseProblem, shown by app/layout.tsx).
 * The database is this test file's scratch DATA_DIR/app.db (test/setup.ts), written as garbage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/health/route';
import { stopIngestWorker } from '../ingest/worker-client';
import { closeDb, databaseProblem } from '../store/db';
import { startServer } from './startup';

afterAll(async () => {
  await stopIngestWorker();
  await closeDb();
});

describe('a corrupt database at start', () => {
  it('the server starts, health answers 503 with the reason, pages get the reason', async () => {
    fs.writeFileSync(path.join(process.env.DATA_DIR!, 'app.db'), Buffer.alloc(8 * 4096, 'not a database '));
    await expect(startServer()).resolves.toBeUndefined();

    const res = await GET();
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.ok).toBe(false);
    expect(body.db.error).toMatch(/not a database|SQLITE_NOTADB/i);
    expect(await databaseProblem()).toMatch(/not a database|SQLITE_NOTADB/i);
  });
});
