/**
 * The web server's handle on the ingest worker: a separate Node process (lib/ingest/worker.ts)
 * so parsing, OCR and embedding never block answering. It is started with the server, restarted
 * if it dies, and poked over IPC when a new manual is queued (it also polls, so a missed poke
 * only costs a second).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type ProcessMemory, rssOfPid } from '../runtime/process-memory';

const state = globalThis as unknown as { __mcIngestWorker?: { child?: ChildProcess; stopping: boolean; restarts: number } };

/** How long /api/health waits for the worker's own memory report before reading /proc instead. */
const MEMORY_REPLY_MS = 1000;

export function startIngestWorker(): void {
  if (state.__mcIngestWorker) return;
  const s = (state.__mcIngestWorker = { stopping: false, restarts: 0 } as { child?: ChildProcess; stopping: boolean; restarts: number });
  const root = process.cwd();
  const args = workerArgs(root);
  const launch = () => {
    const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    s.child = child;
    child.on('exit', (code, signal) => {
      s.child = undefined;
      if (s.stopping) return;
      s.restarts += 1;
      // Back off when it keeps dying; a crashed job is recovered by the next worker on start.
      const delay = Math.min(30_000, 500 * 2 ** Math.min(6, s.restarts - 1));
      console.error(`[ingest] worker exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(launch, delay).unref();
    });
    child.on('message', (msg) => {
      if (msg === 'healthy') s.restarts = 0;
    });
  };
  launch();
  const stop = () => {
    s.stopping = true;
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

/**
 * The ingest worker's memory, asked over IPC (it answers with its process.memoryUsage()). A worker
 * too busy to answer in time (a long synchronous step) is measured from /proc instead (resident
 * memory only, Linux). Null when this server started no worker (MC_NO_WORKER, `npm run worker`
 * processes elsewhere) or it is between restarts.
 */
export async function ingestWorkerMemory(): Promise<(ProcessMemory & { source: 'worker' | 'proc' }) | null> {
  const child = state.__mcIngestWorker?.child;
  if (!child?.pid || !child.connected) return null;
  const pid = child.pid;
  const fromWorker = await new Promise<ProcessMemory | null>((resolve) => {
    const onMessage = (msg: unknown) => {
      if (typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === 'memory') done((msg as { memory: ProcessMemory }).memory);
    };
    const timer = setTimeout(() => done(null), MEMORY_REPLY_MS);
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
  if (fromWorker) return { ...fromWorker, source: 'worker' };
  const rssMb = rssOfPid(pid);
  return rssMb === null ? null : { pid, rssMb, source: 'proc' };
}

/** Stops the worker this process started, for tests (a server's worker ends with the server's process group). @internal */
export async function stopIngestWorker(): Promise<void> {
  const s = state.__mcIngestWorker;
  if (!s) return;
  s.stopping = true;
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
