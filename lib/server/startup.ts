/**
 * What the web server does once on start (instrumentation.ts): apply migrations, seed the sample
 * manual on first run, start the ingest worker (which recovers interrupted jobs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, ensureDataDir } from '../runtime/data-dir';
import { startIngestWorker } from '../ingest/worker-client';
import { runtimeFlag } from '../config';
import { acceptUpload } from '../manuals/service';
import { databaseProblem, describeDb } from '../store/db';

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

export async function startServer(): Promise<void> {
  // A database that cannot be opened must not stop the server: a failed start would answer every
  // path, health included, with a bare 500. Serving lets /api/health answer 503 with the reason
  // and pages say it; the worker would only die on the same file, so it is not started.
  const problem = await databaseProblem();
  if (problem) {
    console.error(`[startup] the database cannot be used: ${problem}. /api/health reports it; fix or restore ${describeDb().target} and restart.`);
    return;
  }
  if (!runtimeFlag('MC_NO_SAMPLE')) {
    await seedSampleManual().catch((err) => console.error('[startup] could not add the sample manual:', err));
  }
  if (!runtimeFlag('MC_NO_WORKER')) startIngestWorker();
}
