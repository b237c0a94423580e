/**
 * What the web server does once on start (instrumentation.ts): apply migrations, remove what a
 * crash left behind, seed the sample manual on first run, start the ingest worker (which recovers
 * interrupted jobs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, ensureDataDir } from '../runtime/data-dir';
import { startIngestWorker } from '../ingest/worker-client';
import { runtimeFlag } from '../config';
import { acceptUpload } from '../manuals/service';
import { filesDir } from '../ingest/paths';
import { removeOrphans } from '../security/orphaned-uploads';
import { databaseProblem, dbDialect, describeDb } from '../store/db';
import { listManuals } from '../store/manuals';

/**
 * Adds the generated sample manual to the library once per DATA_DIR. A marker file remembers it,
 * so a user who deletes the sample does not get it back on the next start.
 */
export async function seedSampleManual(): Promise<{ seeded: boolean; manualId?: string }> {
  const marker = path.join(ensureDataDir('sample'), '.seeded');
  if (fs.existsSync(marker)) return { seeded: false };
  const { ensureSampleManual } = await import('../sample');
  const { pdfPath } = await ensureSampleManual(dataDir('sample'));
  const { manual } = await acceptUpload(fs.createReadStream(pdfPath), path.basename(pdfPath), null);
  fs.writeFileSync(marker, manual.id);
  return { seeded: true, manualId: manual.id };
}

/** How long an upload or manual folder nobody owns is left alone where other servers share FILES_DIR (theirs may be in flight). */
const SHARED_ORPHAN_AGE_MS = 60 * 60_000;

/**
 * Removes `.part` files and folders of manuals that no longer exist. With SQLite this server is the
 * only one (npm start holds DATA_DIR's lock) and nothing is in flight before it serves, so all go;
 * with Postgres, other servers may be writing theirs, so only those untouched for an hour.
 */
export async function removeOrphanedFiles(): Promise<{ uploads: number; manuals: number }> {
  const ids = new Set((await listManuals()).map((m) => m.id));
  const changedBefore = dbDialect() === 'postgres' ? Date.now() - SHARED_ORPHAN_AGE_MS : Infinity;
  const removed = removeOrphans(filesDir(), (id) => ids.has(id), changedBefore);
  if (removed.uploads) console.log(`• Removed ${removed.uploads} unfinished upload${removed.uploads === 1 ? '' : 's'} left by the last run`);
  if (removed.manuals) console.log(`• Removed the files of ${removed.manuals} deleted manual${removed.manuals === 1 ? '' : 's'}`);
  return removed;
}

export async function startServer(): Promise<void> {
  // A database that cannot be opened must not stop the server: a failed start would answer every
  // path, health included, with a bare 500. Serving lets /api/health answer 503 with the reason
  // and pages say it; the worker would only die on the same file, so it is not started.
  const problem = await databaseProblem();
  if (problem) {
    console.error(`[startup] the database cannot be used: ${problem}. /api/health reports it; fix or restore ${describeDb().target} and restart.`);
    return;
  }
  await removeOrphanedFiles().catch((err) => console.error('[startup] could not remove orphaned files:', err));
  if (!runtimeFlag('MC_NO_SAMPLE')) {
    await seedSampleManual().catch((err) => console.error('[startup] could not add the sample manual:', err));
  }
  if (!runtimeFlag('MC_NO_WORKER')) startIngestWorker();
}
