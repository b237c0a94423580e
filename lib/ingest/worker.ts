/**
 * The ingest worker process (started by the web server, see lib/ingest/worker-client.ts):
 * recovers jobs a crash left behind, then runs queued manuals, two at a time so that a short
 * manual is not stuck behind a long scan (the queue hands out the smallest first; the pipeline
 * writes to the index one manual at a time). A lock file makes it the only worker of its DATA_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from '@/lib/data-dir';
import { ingestManual, shutdownOcrEngine } from './pipeline';
import { recoverInterruptedJobs } from './recovery';
import { nextQueuedManualId } from '@/lib/store/jobs';

const POLL_MS = 1000;
/** Manuals processed at once: a second slot keeps small manuals moving while a long one runs (2 cores here). */
const CONCURRENT_JOBS = 2;
let wake: (() => void) | undefined;
let stopping = false;

function acquireLock(): boolean {
  const lock = path.join(ensureDataDir(), 'ingest-worker.lock');
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        return false; // a live worker already serves this DATA_DIR
      } catch {
        // stale lock from a dead process
      }
    }
  } catch {}
  fs.writeFileSync(lock, String(process.pid));
  process.on('exit', () => {
    try {
      if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.rmSync(lock);
    } catch {}
  });
  return true;
}

async function main() {
  if (!acquireLock()) {
    console.log('[ingest] another worker serves this DATA_DIR; exiting');
    return;
  }
  process.on('message', (msg) => {
    if (msg === 'poke') wake?.();
  });
  process.on('disconnect', () => {
    stopping = true; // the server is gone: finish nothing new
    wake?.();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      wake?.();
      // A job in progress is abandoned; the next worker recovers it.
      setTimeout(() => process.exit(0), 200).unref();
    });
  }

  const recovered = await recoverInterruptedJobs();
  for (const r of recovered) console.log(`[ingest] recovered interrupted job ${r.id}: ${r.outcome}`);
  process.send?.('healthy');

  const running = new Map<string, Promise<void>>();
  while (!stopping) {
    const id = running.size < CONCURRENT_JOBS ? await nextQueuedManualId([...running.keys()]) : undefined;
    if (!id) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        for (const job of running.values()) void job.then(resolve);
        setTimeout(resolve, POLL_MS).unref();
      });
      continue;
    }
    const job = ingestManual(id)
      .then((summary) => {
        if (summary) {
          console.log(
            `[ingest] ${id}: ${summary.status} — ${summary.pages} pages, ${summary.ocrPages} OCR, ${summary.chunks} chunks in ${summary.ms} ms${summary.error ? ` (${summary.error})` : ''}`,
          );
        }
      })
      .catch((err) => console.error('[ingest] job crashed', id, err))
      .finally(() => running.delete(id));
    running.set(id, job);
  }
  await Promise.allSettled(running.values());
  await shutdownOcrEngine();
  process.exit(0);
}

main().catch((err) => {
  console.error('[ingest] worker crashed', err);
  process.exit(1);
});
