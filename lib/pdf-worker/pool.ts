/**
 * The web server's PDF workers: every pdf.js parse or render of an uploaded file runs in one of a
 * few child processes, each with a V8 heap cap (--max-old-space-size), a resident-memory cap
 * checked while it works (typed arrays live outside the heap, so the heap cap alone does not bound
 * an inflated stream) and a per-job deadline. A worker over a limit is killed and its job fails
 * with a reason; the next job starts a fresh worker. Jobs beyond the worker count wait in a FIFO.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { IngestError, isIngestError } from '../ingest/errors';
import { LEAN_MALLOC_ENV, rssOfPid } from '../runtime/process-memory';
import { getConfig } from '../config';
import type { BBox } from '../ingest/geometry';
import type { ValueTarget } from '../ingest/word-boxes';
import type { InspectResult, JobResult, LocateResult, PdfJob, WorkerReply } from './protocol';

/**
 * Two lanes share the workers: upload checks, and page reads (renders, zoom renders, value
 * placement) that anyone who may read can ask for. Uploads go first, and reads may hold every
 * worker but one, so a burst of page reads never makes an upload wait or fail. Each lane has its
 * own queue cap; a job past it is refused at once as busy (`isPdfPoolBusy`), which is no verdict
 * on the page and must not be remembered as one.
 */
type Lane = 'upload' | 'read';
const laneOf = (job: PdfJob): Lane => (job.kind === 'inspect' ? 'upload' : 'read');
/** Jobs waiting per lane; more than this and new jobs of that lane are refused (the server is saturated). */
const MAX_QUEUED_JOBS: Record<Lane, number> = { upload: 100, read: 100 };
const readWorkerShare = (processes: number) => Math.max(1, processes - 1);
const POOL_BUSY = 'pool_busy';

/** Whether `err` is a refusal because the lane's queue was full (try again later), not a failure of the job. */
export function isPdfPoolBusy(err: unknown): boolean {
  return isIngestError(err) && err.detail === POOL_BUSY;
}

/** Index in `queue` of the job to start next: the oldest upload check, else the oldest read while reads hold less than their share; -1 for none. */
function nextJobIndex(p: { workers: Set<Worker>; queue: Waiting[] }, processes: number): number {
  const upload = p.queue.findIndex((t) => laneOf(t.job) === 'upload');
  if (upload >= 0) return upload;
  const readsBusy = [...p.workers].filter((w) => w.busy && laneOf(w.busy.task.job) === 'read').length;
  return readsBusy < readWorkerShare(processes) ? p.queue.findIndex((t) => laneOf(t.job) === 'read') : -1;
}
/** An idle worker exits after this, giving its memory back. */
const IDLE_EXIT_MS = 30_000;
/** How often a busy worker's resident memory is read from /proc. */
const RSS_POLL_MS = 100;

interface Waiting {
  job: PdfJob;
  resolve: (r: JobResult) => void;
  reject: (e: Error) => void;
}

interface Worker {
  child: ChildProcess;
  busy?: { id: number; task: Waiting; timer: NodeJS.Timeout; poll: NodeJS.Timeout; killedFor?: string };
  idleTimer?: NodeJS.Timeout;
}

const state = globalThis as unknown as { __mcPdfPool?: { workers: Set<Worker>; queue: Waiting[]; nextId: number; crashes: number } };
const pool = () => (state.__mcPdfPool ??= { workers: new Set(), queue: [], nextId: 1, crashes: 0 });

/** Workers running and busy, jobs queued, and workers that died or were killed at a limit while working (crashes: /api/health). */
export function pdfPoolStats() {
  const p = pool();
  const lane = (l: Lane) => ({
    busy: [...p.workers].filter((w) => w.busy && laneOf(w.busy.task.job) === l).length,
    queued: p.queue.filter((t) => laneOf(t.job) === l).length,
  });
  return {
    workers: p.workers.size,
    busy: [...p.workers].filter((w) => w.busy).length,
    queued: p.queue.length,
    crashes: p.crashes,
    lanes: { upload: lane('upload'), read: lane('read') },
  };
}

/**
 * Production runs the bundle the build wrote (scripts/build-worker.mjs) with plain node; dev and
 * tests, or a build without the bundle, run the TypeScript source through tsx.
 */
function workerArgs(): string[] {
  const root = process.cwd();
  const bundle = path.join(/*turbopackIgnore: true*/ root, '.next', 'pdf-worker.mjs');
  if (process.env.NODE_ENV === 'production' && fs.existsSync(bundle)) return [bundle];
  return ['--import', 'tsx', path.join(/*turbopackIgnore: true*/ root, 'lib', 'pdf-worker', 'worker.ts')];
}

function launch(): Worker {
  const { heapMb } = getConfig().pdfWorker;
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, ...workerArgs()], {
    cwd: process.cwd(),
    env: { ...LEAN_MALLOC_ENV, ...process.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const w: Worker = { child };
  pool().workers.add(w);
  child.on('message', (msg: WorkerReply | 'ready') => {
    if (msg === 'ready' || !w.busy || msg.id !== w.busy.id) return;
    const { task } = finish(w);
    if (msg.ok) task.resolve(msg.result);
    else task.reject(new IngestError(msg.error.code, msg.error.message, { detail: msg.error.detail, retryable: msg.error.retryable }));
    dispatch();
  });
  child.on('exit', (code, signal) => {
    pool().workers.delete(w);
    if (w.busy) {
      const { task, killedFor } = finish(w);
      clearTimeout(w.idleTimer);
      pool().crashes++;
      const reason = killedFor ?? `the PDF reader stopped unexpectedly (${signal ?? `exit code ${code}`})`;
      console.error(`[pdf-worker] ${task.job.kind} failed: ${reason}`);
      task.reject(limitError(task.job, reason));
    }
    clearTimeout(w.idleTimer);
    dispatch();
  });
  child.on('error', (err) => console.error('[pdf-worker] could not start', err));
  return w;
}

function limitError(job: PdfJob, reason: string): IngestError {
  return job.kind === 'render' || job.kind === 'zoom'
    ? new IngestError('render_failed', `Page ${job.page} could not be rendered: ${reason}.`, { detail: reason })
    : new IngestError('corrupt', `This PDF could not be read within the server's limits: ${reason}. Re-export it from the original document.`, {
        detail: reason,
      });
}

function finish(w: Worker) {
  const busy = w.busy!;
  clearTimeout(busy.timer);
  clearInterval(busy.poll);
  w.busy = undefined;
  w.idleTimer = setTimeout(() => w.child.kill('SIGTERM'), IDLE_EXIT_MS);
  w.idleTimer.unref();
  // An idle worker must not keep a CLI or test process alive.
  w.child.unref();
  w.child.channel?.unref();
  return busy;
}

/** Resident memory of a process in MB from /proc (Linux); null where that is not available. */
function kill(w: Worker, reason: string) {
  if (w.busy && !w.busy.killedFor) w.busy.killedFor = reason;
  w.child.kill('SIGKILL');
}

function dispatch() {
  const p = pool();
  const { processes, jobTimeoutMs, maxRssMb } = getConfig().pdfWorker;
  for (let next = nextJobIndex(p, processes); next >= 0; next = nextJobIndex(p, processes)) {
    let w = [...p.workers].find((x) => !x.busy && x.child.connected);
    if (!w) {
      if (p.workers.size >= processes) return;
      w = launch();
    }
    const [task] = p.queue.splice(next, 1);
    const id = p.nextId++;
    clearTimeout(w.idleTimer);
    w.child.ref();
    w.child.channel?.ref();
    const worker = w;
    w.busy = {
      id,
      task,
      timer: setTimeout(() => kill(worker, `it took longer than ${Math.round(jobTimeoutMs / 1000)} s`), jobTimeoutMs),
      poll: setInterval(() => {
        const rss = worker.child.pid ? rssOfPid(worker.child.pid) : null;
        if (rss !== null && rss > maxRssMb) kill(worker, `it needed more than ${maxRssMb} MB of memory`);
      }, RSS_POLL_MS),
    };
    w.child.send({ id, job: task.job }, (err) => {
      if (err) kill(worker, `the PDF reader could not be reached (${err.message})`);
    });
  }
}

export function runPdfJob(job: PdfJob): Promise<JobResult> {
  const p = pool();
  const lane = laneOf(job);
  if (p.queue.filter((t) => laneOf(t.job) === lane).length >= MAX_QUEUED_JOBS[lane]) {
    return Promise.reject(
      new IngestError('render_failed', 'The server is busy reading other PDFs. Please try again in a minute.', {
        detail: POOL_BUSY,
        retryable: true,
      }),
    );
  }
  return new Promise((resolve, reject) => {
    p.queue.push({ job, resolve, reject });
    dispatch();
  });
}

/** Page count and title of a PDF on disk, checked in a worker; throws IngestError (incl. password problems). */
export async function inspectPdfFile(file: string, opts: { password?: string; maxPages: number; maxBytes: number }): Promise<InspectResult> {
  return (await runPdfJob({ kind: 'inspect', file, ...opts })) as InspectResult;
}

/** Boxes of quoted values on one page of a PDF on disk, placed in a worker; null where the text layer lacks one. */
export async function locateValuesInPdf(file: string, page: number, targets: ValueTarget[], password?: string): Promise<Array<BBox | null>> {
  if (targets.length === 0) return [];
  return ((await runPdfJob({ kind: 'locate', file, password, page, targets })) as LocateResult).boxes;
}

/** Stops every worker, for tests. @internal */
export function stopPdfWorkers(): void {
  for (const w of pool().workers) w.child.kill('SIGKILL');
}
