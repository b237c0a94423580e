/**
 * A PDF opened for ingest in its own worker thread, behind the PdfDoc interface: pdf.js parses and
 * draws there, never on the ingest worker's event loop. So a page that takes minutes (a content
 * stream of millions of path operators shared by every page) cannot hold up lease renewals,
 * heartbeats, progress or the other job this worker runs, and it can be stopped: each page call
 * has a deadline (INGEST_PAGE_TIMEOUT_S), and past it, past the thread's heap
 * (INGEST_PAGE_HEAP_MB) or when the job's signal aborts (its deadline, a lost lease) the thread is
 * terminated and every call fails with the reason ("Page 3 takes too long to draw").
 *
 * A thread that closed its document in good order waits for the next one (`idle`): starting one
 * loads pdf.js, canvas and sharp again (~0.6 s of CPU), as much as a short manual's reading pass
 * (docs/benchmarks.md). A stopped thread is never reused.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { getConfig } from '../config';
import { IngestError, ingestErrors } from './errors';
import type { BBox } from './geometry';
import type { PdfDoc, PageContent } from './pdf';
import type { RawImage, RenderedImage, RenderOptions } from './render';

type Method = 'open' | 'close' | 'pageSize' | 'extractPage' | 'cleanup' | 'renderPage' | 'renderRegion' | 'renderPageRaw' | 'renderRegionRaw';
export type ThreadCall = { id: number; method: Method; args: unknown[] };
export type ThreadReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { ingest: ReturnType<IngestError['toJSON']> } | { name: string; message: string } };

interface Pending {
  id: number;
  page?: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

/**
 * Idle threads kept: one, for the next upload. An idle thread holds ~80 MB (pdf.js, canvas, sharp);
 * a second job running beside the first starts its own.
 */
const IDLE_MAX = 1;
/** Threads whose document was closed, by their heap limit (INGEST_PAGE_HEAP_MB when they started). */
const idle = new Map<number, Worker[]>();
let started = 0;

/** The bundled thread beside the bundled ingest worker (scripts/build-worker.mjs), else the sources bundled as it starts. */
function startThread(heapMb: number): Worker {
  started++;
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  const bundled = new URL('./pdf-thread.mjs', import.meta.url);
  const worker =
    bundled.protocol === 'file:' && fs.existsSync(fileURLToPath(bundled))
      ? new Worker(bundled, { resourceLimits })
      : new Worker(new URL('./pdf-thread-dev.mjs', import.meta.url), {
          resourceLimits,
          workerData: { entry: new URL('./pdf-thread-entry.ts', import.meta.url).href },
        });
  // A thread must not keep a CLI or test process alive; a busy one is awaited anyway.
  worker.unref();
  // An idle thread that ends (or fails to start) leaves the pool.
  const forget = () =>
    idle.set(
      heapMb,
      (idle.get(heapMb) ?? []).filter((w) => w !== worker),
    );
  worker.on('exit', forget);
  worker.on('error', forget);
  return worker;
}

function takeThread(heapMb: number): Worker {
  return idle.get(heapMb)?.pop() ?? startThread(heapMb);
}

function returnThread(worker: Worker, heapMb: number): void {
  const list = idle.get(heapMb) ?? [];
  if (list.length >= IDLE_MAX) void worker.terminate();
  else idle.set(heapMb, [...list, worker]);
}

/**
 * Starts a thread for the next document now, when none is idle: the ingest worker calls it as it
 * starts and a job as it begins, so pdf.js loads while the upload or the vector store is opened.
 */
export function warmPdfThread(): void {
  const heapMb = getConfig().ingestLimits.pageHeapMb;
  if (!idle.get(heapMb)?.length) returnThread(startThread(heapMb), heapMb);
}

/** Threads started in this process so far. @internal */
export const pdfThreadsStarted = () => started;

/** Opens `bytes` (a file that passed the upload's checks) in a thread of its own; `signal` stops it. */
export async function openPdfInThread(bytes: Uint8Array, opts: { password?: string; signal?: AbortSignal } = {}): Promise<PdfDoc> {
  const doc = new ThreadPdfDoc(getConfig().ingestLimits, opts.signal);
  try {
    await doc.open(bytes, opts.password);
  } catch (err) {
    await doc.close();
    throw err;
  }
  return doc;
}

class ThreadPdfDoc implements PdfDoc {
  numPages = 0;
  fingerprint = '';
  info: PdfDoc['info'] = {};
  private readonly worker: Worker;
  private readonly heapMb: number;
  private nextId = 0;
  private pending?: Pending;
  /** Calls run one at a time (pdf.js is one thread anyway), so a page's deadline counts its own time only. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Why the thread was stopped; every later call fails with it. */
  private dead?: Error;

  private readonly onMessage = (reply: ThreadReply) => this.settle(reply);
  private readonly onError = (err: Error & { code?: string }) => {
    this.stop(
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? ingestErrors.pageTooBig(this.pending?.page, this.heapMb)
        : ingestErrors.corrupt(`PDF thread: ${err.message}`, err),
    );
  };
  private readonly onExit = (code: number) => this.stop(ingestErrors.corrupt(`the PDF thread exited (code ${code})`));
  private readonly onAbort = () => this.stop(abortError(this.signal!));

  constructor(
    private readonly limits: { pageTimeoutMs: number; pageHeapMb: number },
    private readonly signal?: AbortSignal,
  ) {
    this.heapMb = limits.pageHeapMb;
    this.worker = takeThread(this.heapMb);
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    if (signal?.aborted) this.stop(abortError(signal));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  async open(bytes: Uint8Array, password?: string): Promise<void> {
    const copy = new Uint8Array(bytes);
    const opened = (await this.call('open', [copy, password], undefined, [copy.buffer])) as Pick<PdfDoc, 'numPages' | 'fingerprint' | 'info'>;
    this.numPages = opened.numPages;
    this.fingerprint = opened.fingerprint;
    this.info = opened.info;
  }

  pageSize(n: number) {
    return this.call('pageSize', [n], { page: n, doing: 'read' }) as Promise<{ width: number; height: number }>;
  }

  extractPage(n: number) {
    return this.call('extractPage', [n], { page: n, doing: 'read' }) as Promise<PageContent>;
  }

  async cleanup() {
    await this.call('cleanup', []);
  }

  async renderPage(n: number, opts?: RenderOptions): Promise<RenderedImage> {
    const r = (await this.call('renderPage', [n, opts], { page: n, doing: 'draw' })) as RenderedImage;
    return { ...r, png: asBuffer(r.png) };
  }

  async renderRegion(n: number, bbox: BBox, opts?: RenderOptions): Promise<RenderedImage> {
    const r = (await this.call('renderRegion', [n, bbox, opts], { page: n, doing: 'draw' })) as RenderedImage;
    return { ...r, png: asBuffer(r.png) };
  }

  async renderPageRaw(n: number, opts?: RenderOptions): Promise<RawImage> {
    const r = (await this.call('renderPageRaw', [n, opts], { page: n, doing: 'draw' })) as RawImage;
    return { ...r, data: asBuffer(r.data) };
  }

  async renderRegionRaw(n: number, bbox: BBox, opts?: RenderOptions): Promise<RawImage> {
    const r = (await this.call('renderRegionRaw', [n, bbox, opts], { page: n, doing: 'draw' })) as RawImage;
    return { ...r, data: asBuffer(r.data) };
  }

  /** Frees the document; a thread still sound waits for the next one, any other is ended. */
  async close() {
    this.signal?.removeEventListener('abort', this.onAbort);
    const closed =
      !this.dead &&
      (await this.call('close', [], { page: 0, doing: 'close' }).then(
        () => true,
        () => false,
      ));
    this.dead ??= new Error('the PDF was closed');
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    if (closed) returnThread(this.worker, this.heapMb);
    else await this.worker.terminate();
  }

  /** Queues one call; a page call fails, and stops the thread, past the page deadline. */
  private call(method: Method, args: unknown[], deadline?: { page: number; doing: 'read' | 'draw' | 'close' }, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const run = this.tail.then(
      () =>
        new Promise<unknown>((resolve, reject) => {
          if (this.dead) return reject(this.dead);
          const p: Pending = { id: ++this.nextId, page: deadline?.page, resolve, reject };
          if (deadline) {
            const ms = this.limits.pageTimeoutMs;
            const reason = () =>
              deadline.doing === 'close'
                ? ingestErrors.corrupt('the PDF thread did not close the document')
                : ingestErrors.pageTooSlow(deadline.page, deadline.doing, ms);
            p.timer = setTimeout(() => this.stop(reason()), ms);
          }
          this.pending = p;
          this.worker.postMessage({ id: p.id, method, args } satisfies ThreadCall, transfer);
        }),
    );
    this.tail = run.catch(() => {});
    return run;
  }

  private settle(reply: ThreadReply) {
    const p = this.pending;
    if (!p || p.id !== reply.id) return;
    clearTimeout(p.timer);
    this.pending = undefined;
    if (reply.ok) return p.resolve(reply.result);
    const e = reply.error;
    if ('ingest' in e) p.reject(new IngestError(e.ingest.code, e.ingest.message, { detail: e.ingest.detail, retryable: e.ingest.retryable }));
    else p.reject(Object.assign(new Error(e.message), { name: e.name }));
  }

  /** Ends the thread: the call in flight and every later one fail with `reason`. */
  private stop(reason: Error) {
    if (this.dead) return;
    this.dead = reason;
    const p = this.pending;
    this.pending = undefined;
    if (p) {
      clearTimeout(p.timer);
      p.reject(reason);
    }
    void this.worker.terminate();
  }
}

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
