/**
 * The web server's handle on the ingest worker: a separate Node process (lib/ingest/worker.ts)
 * so parsing, OCR and embedding never block answering. It is started with the server, restarted
 * if it dies, and poked over IPC when a new manual is queued (it also polls, so a missed poke
 * only costs a second).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const state = globalThis as unknown as { __mcIngestWorker?: { child?: ChildProcess; stopping: boolean; restarts: number } };

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
