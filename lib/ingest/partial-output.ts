/**
 * A job's partial output: what an interrupted, failed or memory-killed ingest leaves behind. Its
 * own module so the web server (worker-client.ts fails a manual whose worker it killed) can
 * remove it without loading the pipeline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getVectorStore } from '../providers';
import type { VectorStore } from '../providers/types';
import { clearPagesAndChunks } from '../store/manuals';
import { clearUnits } from '../store/units';
import { manualDir } from './paths';

/**
 * Removes everything a job may have written for a manual except its source PDF. Each part is
 * tried even when another fails (a vector store that is down must not leave the rows and page
 * images behind); the first failure is thrown at the end.
 */
export async function discardPartialOutput(manualId: string, store?: VectorStore): Promise<void> {
  const results = await Promise.allSettled([
    (async () => (store ?? (await getVectorStore())).deleteManual(manualId))(),
    clearPagesAndChunks(manualId),
    clearUnits(manualId),
    fs.promises.rm(path.join(manualDir(manualId), 'pages'), { recursive: true, force: true }),
    fs.promises.rm(path.join(manualDir(manualId), 'thumbs'), { recursive: true, force: true }),
  ]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
