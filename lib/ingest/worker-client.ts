/**
 * The web server's handle on the ingest worker: a separate Node process (lib/ingest/worker.ts)
 * so parsing, OCR and embedding never block answering. It is started with the server, restarted
 * if it dies, and poked over IPC when a new manual is queued (it also polls, so a missed poke
 * only costs a second).
 *
 * Memory limits like the PDF workers': a V8 heap cap (--max-old-space-size,
 * INGEST_WORKER_HEAP_MB) and a resident-memory cap read from /proc every 100 ms
 * (INGEST_WORKER_MAX_RSS_MB; decoded images and pdf.js buffers live outside the heap). A worker
 * over either is killed and restarted, and the manuals it held are failed at once with the
 * reason: recovery would otherwise queue them again, and the same file would kill the next worker
 * twice more before MAX_ATTEMPTS gave up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getConfig } from '../config';
import { LEAN_MALLOC_ENV, type ProcessMemory, rssOfPid } from '../runtime/process-memory';
import { failHeldJob } from '../store/jobs';
import { discardPartialOutput } from './partial-output';

interface WorkerMemory extends ProcessMemory {
  /** `worker`: the worker's own process.memoryUsage(); `proc`: its resident memory read from /proc because it did not answer. */
  source: 'worker' | 'proc';
}

interface WorkerState {
  child?: ChildProcess;
  stopping: boolean;
  /** Restarts since the worker last said it was healthy: the backoff's exponent. */
  failures: number;
  /** Restarts since this server started, for /api/health. */
  restarts: number;
  /** The last memory figure of the running worker and when it was taken. */
  memory?: { figure: WorkerMemory; at: number };
  refreshing?: Promise<void>;
  refreshTimer?: NodeJS.Timeout;
  /** The worker's id in the job queue and the manuals it holds (it reports them over IPC). */
  jobs?: { workerId: string; ids: string[] };
  /** Why this server killed the current worker. */
  killedFor?: string;
  memoryKills: number;
  peakRssMb: number;
}

const state = globalThis as unknown as { __mcIngestWorker?: WorkerState };

/** How long a memory refresh waits for the worker's own report before reading /proc instead. */
const MEMORY_REPLY_MS = 1000;
/** How often the worker's memory is refreshed in the background while it runs. */
const MEMORY_REFRESH_MS = 5000;
/** How often the worker's resident memory is read from /proc. */
const RSS_POLL_MS = 100;

export function startIngestWorker(): void {
  if (state.__mcIngestWorker) return;
  const s: WorkerState = (state.__mcIngestWorker = { stopping: false, failures: 0, restarts: 0, memoryKills: 0, peakRssMb: 0 });
  const root = process.cwd();
  const args = workerArgs(root);
  const launch = () => {
    const { heapMb, maxRssMb } = getConfig().ingestWorker;
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, ...args], {
      cwd: root,
      env: { ...LEAN_MALLOC_ENV, ...process.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    s.child = child;
    s.memory = undefined;
    s.jobs = undefined;
    s.killedFor = undefined;
    const poll = setInterval(() => {
      const rss = child.pid ? rssOfPid(child.pid) : null;
      if (rss === null) return;
      s.peakRssMb = Math.max(s.peakRssMb, rss);
      if (rss > maxRssMb && !s.killedFor) {
        s.killedFor = `over the memory limit: processing it needed more than ${maxRssMb} MB`;
        child.kill('SIGKILL');
      }
    }, RSS_POLL_MS);
    poll.unref();
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      s.child = undefined;
      s.memory = undefined;
      // V8 aborts (SIGABRT) when the heap cap is reached.
      const memory = s.killedFor ?? (signal === 'SIGABRT' ? `over the memory limit: processing it needed more than the ${heapMb} MB heap` : undefined);
      const held = s.jobs;
      if (s.stopping) return;
      if (memory) s.memoryKills++;
      s.failures += 1;
      s.restarts += 1;
      // Back off when it keeps dying; a crashed job is recovered by the next worker on start.
      const delay = Math.min(30_000, 500 * 2 ** Math.min(6, s.failures - 1));
      console.error(`[ingest] worker exited (${memory ?? signal ?? code}); restarting in ${delay} ms`);
      // The manuals it held are failed before the next worker starts (its recovery would requeue them).
      const failing = memory && held ? failHeld(held, memory) : Promise.resolve();
      void failing.finally(() => setTimeout(launch, delay).unref());
    });
    child.on('message', (msg) => {
      if (msg === 'healthy') s.failures = 0;
      if (isJobsReport(msg)) s.jobs = { workerId: msg.workerId, ids: msg.ids };
    });
  };
  launch();
  // The memory /api/health shows is refreshed here, never while a health request waits.
  s.refreshTimer = setInterval(() => void refreshWorkerMemory(s), MEMORY_REFRESH_MS);
  s.refreshTimer.unref();
  const stop = () => {
    s.stopping = true;
    clearInterval(s.refreshTimer);
    s.child?.kill('SIGTERM');
  };
  process.once('exit', stop);
  process.once('SIGTERM', () => {
    stop();
    process.exit(0);
  });
  process.once('SIGINT', () => {
    stop();
    process.exit(0);
  });
}

/** How often this server restarted its ingest worker (0 when it started none). */
export function ingestWorkerRestarts(): number {
  return state.__mcIngestWorker?.restarts ?? 0;
}

function isJobsReport(msg: unknown): msg is { type: 'jobs'; workerId: string; ids: string[] } {
  const m = msg as { type?: unknown; workerId?: unknown; ids?: unknown } | null;
  return typeof m === 'object' && m !== null && m.type === 'jobs' && typeof m.workerId === 'string' && Array.isArray(m.ids);
}

/** Fails the ingest jobs a memory-killed worker held (re-embeds stay: the manual is ready) and removes their partial output. */
async function failHeld(held: { workerId: string; ids: string[] }, reason: string): Promise<void> {
  const message = `This PDF could not be processed: ${reason}. Re-export it from the original document, or split it, and upload it again.`;
  for (const id of held.ids) {
    try {
      if (!(await failHeldJob(id, held.workerId, message, 'memory_limit'))) continue;
      console.error(`[ingest] ${id}: failed — ${reason}`);
      await discardPartialOutput(id);
    } catch (err) {
      console.error('[ingest] could not fail', id, err instanceof Error ? err.message : err);
    }
  }
}

/** Peak resident memory seen of the ingest workers and how many were killed over a limit, for tests. @internal */
export function ingestWorkerStats(): { peakRssMb: number; memoryKills: number; pid?: number } {
  const s = state.__mcIngestWorker;
  return { peakRssMb: s?.peakRssMb ?? 0, memoryKills: s?.memoryKills ?? 0, pid: s?.child?.pid };
}

/**
 * The ingest worker's memory as last measured, with its age: never waits for the worker, so
 * /api/health answers at once while the worker is busy. The figure is refreshed in the
 * background (every few seconds, and when a caller sees it older than a second): asked over IPC
 * (the worker answers with its process.memoryUsage()), or, when the worker is too busy to answer
 * within a second (a long synchronous step), read from /proc (resident memory only, Linux). Before
 * the first refresh it is read from /proc on the spot. Null when this server started no worker
 * (MC_NO_WORKER, `npm run worker` processes elsewhere) or it is between restarts.
 */
export function ingestWorkerMemory(): (WorkerMemory & { ageMs: number }) | null {
  const s = state.__mcIngestWorker;
  const pid = s?.child?.pid;
  if (!s || !pid || !s.child?.connected) return null;
  if (!s.memory || Date.now() - s.memory.at > MEMORY_REPLY_MS) void refreshWorkerMemory(s);
  if (!s.memory) {
    const rssMb = rssOfPid(pid);
    if (rssMb === null) return null;
    s.memory = { figure: { pid, rssMb, source: 'proc' }, at: Date.now() };
  }
  return { ...s.memory.figure, ageMs: Date.now() - s.memory.at };
}

/** Asks the running worker for its memory (one request at a time) and stores the answer. */
function refreshWorkerMemory(s: WorkerState): Promise<void> {
  const child = s.child;
  if (s.refreshing || !child?.pid || !child.connected) return s.refreshing ?? Promise.resolve();
  const pid = child.pid;
  const asked = new Promise<ProcessMemory | null>((resolve) => {
    const onMessage = (msg: unknown) => {
      if (typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === 'memory') done((msg as { memory: ProcessMemory }).memory);
    };
    const timer = setTimeout(() => done(null), MEMORY_REPLY_MS);
    timer.unref();
    function done(m: ProcessMemory | null) {
      clearTimeout(timer);
      child!.off('message', onMessage);
      resolve(m);
    }
    child.on('message', onMessage);
    child.send('memory?', (err) => {
      if (err) done(null);
    });
  });
  s.refreshing = asked
    .then((fromWorker) => {
      if (s.child !== child) return; // restarted meanwhile: this figure is of a process that is gone
      if (fromWorker) {
        s.memory = { figure: { ...fromWorker, source: 'worker' }, at: Date.now() };
        return;
      }
      const rssMb = rssOfPid(pid);
      if (rssMb !== null) s.memory = { figure: { pid, rssMb, source: 'proc' }, at: Date.now() };
    })
    .finally(() => {
      s.refreshing = undefined;
    });
  return s.refreshing;
}

/** Stops the worker this process started, for tests (a server's worker ends with the server's process group). @internal */
export async function stopIngestWorker(): Promise<void> {
  const s = state.__mcIngestWorker;
  if (!s) return;
  s.stopping = true;
  clearInterval(s.refreshTimer);
  const child = s.child;
  state.__mcIngestWorker = undefined;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Tells the worker there is new work; harmless when no worker runs (CLI, tests). */
export function pokeIngestWorker(): void {
  const child = state.__mcIngestWorker?.child;
  if (child?.connected) child.send('poke');
}

/**
 * Production runs the bundle the build wrote (scripts/build-worker.mjs) with plain node; dev and
 * tests, or a build without the bundle, run the TypeScript source through tsx.
 */
function workerArgs(root: string): string[] {
  const bundle = path.join(/*turbopackIgnore: true*/ root, '.next', 'ingest-worker.mjs');
  if (process.env.NODE_ENV === 'production' && fs.existsSync(bundle)) return [bundle];
  return ['--import', 'tsx', path.join(/*turbopackIgnore: true*/ root, 'lib', 'ingest', 'worker.ts')];
}
