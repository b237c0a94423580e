/**
 * app.db holds password hashes and chats: the data folder is 0700 and the database, its WAL and its
 * shared-memory file 0600 — also for a database an older version left world-readable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from './db';
import { createManual } from './manuals';

const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-db-modes-')), 'data');
process.env.DATA_DIR = dataDir;
afterAll(async () => {
  await closeDb();
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the SQLite files’ modes', () => {
  it('makes DATA_DIR 0700 and app.db, -wal and -shm 0600, whatever they were', async () => {
    // As an older version left them: a readable folder and database (an empty file is an empty database).
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'app.db'), '', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'app.db'), 0o644);

    await getDb();
    await createManual({ id: 'modes', title: 'modes', fileName: 'modes.pdf', sha256: 'b'.repeat(64), sizeBytes: 1 });

    expect(mode(dataDir)).toBe(0o700);
    for (const name of ['app.db', 'app.db-wal', 'app.db-shm']) expect([name, mode(path.join(dataDir, name))]).toEqual([name, 0o600]);
  });
});
