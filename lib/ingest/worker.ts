/**
 * An ingest worker process: started by the web server (lib/ingest/worker-client.ts) or alone
 * with `npm run worker` (scripts/worker.ts), on any number of machines sharing one Postgres and
 * one FILES_DIR. It claims queued manuals from the shared queue (lib/store/jobs.ts), each under a
 * renewed lease, and reclaims jobs whose worker died (lib/ingest/recovery.ts). It runs two
 * manuals at once so a short manual is not stuck behind a long scan (the queue hands out the
 * smallest first; the pipeline writes to the index one manual at a time). When no upload waits, it
 * re-embeds the ready manuals whose vectors other embedders made (lib/ingest/reembed.ts).
 */
import { getConfig } from '@/lib/config';
import { claimNextManual, claimNextReembed, forgetWorker, heartbeat } from '@/lib/store/jobs';
import { repairVectorIndex } from '@/lib/store/vector-audit';
import { runGuarded } from './decode-guard';
import { warmPdfThread } from './pdf-thread';
import { ingestManual, shutdownOcrEngine } from './pipeline';
import { prepareReembedding, reembedManual } from './reembed';
import { recoverInterruptedJobs } from './recovery';
import { processWorkerId, processWorkerInfo } from './worker-id';
import { ownMemory } from '../runtime/process-memory';

const POLL_MS = 1000;
/** How often the vector index is checked against the stored chunks and repaired (lib/store/vector-audit.ts). */
const INDEX_AUDIT_EVERY_MS = 30_000;
/** How often an idle or busy worker looks for jobs whose worker died (a cheap indexed query). */
const RECLAIM_EVERY_MS = 5000;
/**
 * Manuals processed at once. The embedded default has one worker, so a second slot keeps small
 * manuals moving while a long one runs. On Postgres throughput comes from more workers: each takes
 * one job at a time, so a busy worker's lease renewals are never starved by a second job (the
 * cluster test's short leases were lost that way).
 */
const CONCURRENT_JOBS = getConfig().database.dialect === 'postgres' ? 1 : 2;
let wake: (() => void) | undefined;
let stopping = false;

async function reclaim(): Promise<void> {
  for (const r of await recoverInterruptedJobs()) console.log(`[ingest] recovered interrupted job ${r.id}: ${r.outcome}`);
}

let lastIndexAudit = 0;
/** Manuals whose vectors are gone (a deleted or damaged index) become re-embed jobs. */
async function repairIndex(): Promise<void> {
  if (Date.now() - lastIndexAudit < INDEX_AUDIT_EVERY_MS) return;
  lastIndexAudit = Date.now();
  await repairVectorIndex().catch((err) => console.error('[ingest] vector index audit failed:', err instanceof Error ? err.message : err));
}

/** The active embedders' fingerprint, once they could be loaded (retried with each reclaim until then). */
let activeFingerprint: string | undefined;

async function prepareReembed(): Promise<void> {
  if (activeFingerprint) return;
  try {
    const { fingerprint, stale } = await prepareReembedding();
    activeFingerprint = fingerprint;
    if (stale > 0) console.log(`[ingest] ${stale} manual(s) to re-embed for ${fingerprint}`);
  } catch (err) {
    console.error('[ingest] cannot check the index against the embedders yet:', err instanceof Error ? err.message : err);
  }
}

async function ingest(id: string): Promise<void> {
  // A stream decoded past its cap fails this manual (decode-guard.ts), not the other one running.
  const summary = await runGuarded(() => ingestManual(id, {}, undefined, { claimed: true }));
  if (summary) {
    console.log(
      `[ingest] ${id}: ${summary.status} — ${summary.pages} pages, ${summary.ocrPages} OCR, ${summary.chunks} chunks in ${summary.ms} ms${summary.error ? ` (${summary.error})` : ''}`,
    );
  }
}

async function reembed(id: string, fingerprint: string): Promise<void> {
  console.log(`[ingest] ${id}: re-embedding ${await reembedManual(id, fingerprint)}`);
}

/** The next job: an upload first, else a manual to re-embed. */
async function claimNext(): Promise<{ id: string; run: () => Promise<void> } | undefined> {
  const workerId = processWorkerId();
  const id = await claimNextManual(workerId);
  if (id) return { id, run: () => ingest(id) };
  const fingerprint = activeFingerprint;
  const stale = fingerprint ? await claimNextReembed(workerId, fingerprint) : undefined;
  return stale && fingerprint ? { id: stale, run: () => reembed(stale, fingerprint) } : undefined;
}

/**
 * Tells the server which manuals this process holds: if it kills this process over its memory
 * limit, it fails those (worker-client.ts) instead of letting recovery run them again.
 */
function reportJobs(workerId: string, running: Map<string, unknown>): void {
  if (process.connected) process.send?.({ type: 'jobs', workerId, ids: [...running.keys()] });
}

async function main() {
  const me = processWorkerInfo();
  process.on('message', (msg) => {
    if (msg === 'poke') wake?.();
    // The web server's /api/health asks for this process's memory.
    if (msg === 'memory?') process.send?.({ type: 'memory', memory: ownMemory() });
  });
  process.on('disconnect', () => {
    stopping = true; // the server is gone: finish nothing new
    wake?.();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      wake?.();
      // A job in progress is abandoned; its lease runs out (or this host sees the pid gone) and
      // another worker recovers it.
      setTimeout(() => process.exit(0), 200).unref();
    });
  }

  // The first upload finds pdf.js loaded.
  warmPdfThread();
  await heartbeat(me);
  await reclaim();
  await repairIndex();
  await prepareReembed();
  console.log(`[ingest] worker ${me.id} ready`);
  process.send?.('healthy');

  let lastReclaim = Date.now();
  let lastBeat = Date.now();
  const running = new Map<string, Promise<void>>();
  while (!stopping) {
    if (Date.now() - lastBeat > POLL_MS * 3) {
      lastBeat = Date.now();
      await heartbeat(me).catch((err) => console.error('[ingest] heartbeat failed:', err instanceof Error ? err.message : err));
    }
    if (Date.now() - lastReclaim > RECLAIM_EVERY_MS) {
      lastReclaim = Date.now();
      await reclaim().catch((err) => console.error('[ingest] reclaim failed:', err instanceof Error ? err.message : err));
      await repairIndex();
      await prepareReembed();
    }
    const next =
      running.size < CONCURRENT_JOBS
        ? await claimNext().catch((err) => {
            console.error('[ingest] could not read the queue:', err instanceof Error ? err.message : err);
            return undefined;
          })
        : undefined;
    if (!next) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, POLL_MS).unref();
      });
      continue;
    }
    const { id, run } = next;
    const job = run()
      .catch((err) => console.error('[ingest] job crashed', id, err))
      .finally(() => {
        running.delete(id);
        reportJobs(me.id, running);
      });
    running.set(id, job);
    reportJobs(me.id, running);
  }
  await Promise.allSettled(running.values());
  await forgetWorker(me.id).catch(() => undefined);
  await shutdownOcrEngine();
  process.exit(0);
}

main().catch((err) => {
  console.error('[ingest] worker crashed', err);
  process.exit(1);
});
