/**
 * The staged ingest of one manual: queued → parsing → ocr → rendering → embedding → indexing →
 * ready (or failed with the reason). Progress is written to the manuals row as it goes, so any
 * process (the web server, the CLI) can show it.
 *
 * Progressive availability: pages become searchable as soon as their text is indexed. While the
 * reading pass goes on, its text-ready pages are written in batches with "searchable through page
 * N" (store/manuals.ts indexTextPages, one transaction each), so a question can search a manual's
 * first pages long before it is ready. Figure labels (OCR of figures) follow in a later pass,
 * then images, vectors; the last stage streams over the pages a range at a time, replacing each
 * range's text-pass rows with the complete ones (one transaction per range), and then marks figure
 * labels done.
 *
 * Consistency: every write replaces rows (a page written twice is never duplicated), a failure
 * (or a crash found on the next start) removes whatever the job had written and sets searchable
 * pages back to 0, and the retried job starts over: never a half-written page, never a row lost.
 */
import fs from 'node:fs';
import { getEmbedder, getMultiVectorEmbedder, getVectorStore, indexFingerprint } from '../providers';
import { getConfig } from '../config';
import type { ChunkRecord, Embedder, MultiVectorEmbedder, PageRecord, VectorStore } from '../providers/types';
import { getManual, getPage, indexTextPages, replaceTitleIf, updateManual, type Manual, type PageRow } from '../store/manuals';
import { profilePages, storedProfile } from '../device/identity';
import { claimManual, endLease, holdsLease } from '../store/jobs';
import { holdLease, LeaseLost } from './lease';
import { titleFromPages } from './manual-title';
import { titleFromFileName } from './upload';
import { processWorkerId } from './worker-id';
import { chunkPages, ManualChunker, type Chunk } from './chunk';
import { ingestErrors, isIngestError } from './errors';
import { type OcrEngine, createTesseractEngine } from './ocr';
import { describeOcrEngine, figureEngineOf } from './ocr-engine';
import { createNativeTesseractEngine } from './ocr-native';
import { createPaddleEngine } from './ocr-paddle';
import { pageImagePath, pageThumbPath, manualDir, manualSourcePath } from './paths';
import { discardPartialOutput } from './partial-output';
import type { PageContent } from './pdf';
import { openPdfInThread, warmPdfThread } from './pdf-thread';
import { PagePass } from './page-pass';
import { storeStructure } from './structure-store';
import { holdAtE2eGate } from './e2e-gate';
import path from 'node:path';

type IngestStage = 'parsing' | 'ocr' | 'rendering' | 'embedding' | 'indexing';

export interface IngestDeps {
  embedder?: Embedder;
  multiVector?: MultiVectorEmbedder;
  store?: VectorStore;
  ocr?: OcrEngine;
  /** Figure regions' engine; with `ocr` injected, figures go to `ocr` unless this is given too. */
  figureOcr?: OcrEngine;
}

export interface IngestSummary {
  manualId: string;
  status: 'ready' | 'failed';
  pages: number;
  ocrPages: number;
  chunks: number;
  error?: string;
  errorCode?: string;
  timings: Record<string, number>;
  ms: number;
}

/** Thrown inside the pipeline when the manual was deleted while being processed. */
class ManualGone extends Error {}

export interface IngestOptions {
  /** The lease holder (default: this process); with `claimed`, the job was claimed already (claimNextManual). */
  workerId?: string;
  claimed?: boolean;
}

/** Chunks per embedder call. */
export const EMBED_BATCH = 64;
/** Pages embedded and written to the vector store at once. */
export const PAGE_BATCH = 16;
/**
 * Pages whose chunks are cut, embedded and written at once in the last stage (rounded up to whole
 * page batches): bounded memory on a long manual, few enough vector-store writes (each is a
 * LanceDB fragment until the idle optimize).
 */
const INDEX_RANGE_PAGES = 128;
/**
 * A batch size for `n` items that reports progress about ten times a stage (at least `min` items a
 * call, at most `max`): a short manual's embedding is not one step from 0 to done.
 */
const progressBatch = (n: number, min: number, max: number) => Math.min(max, Math.max(min, Math.ceil(n / 10)));

/** How often the text pass writes its newly ready pages (the first page is written at once). */
const TEXT_FLUSH_MS = 500;
/**
 * Pages before a batch chunked with it: headings carry over page breaks and running headers are
 * found across pages (chunk.ts), so a batch's first chunks get the heading they will have at the end.
 */
const TEXT_CONTEXT_PAGES = 8;

/** How a failure message names the stage it happened in. */
const DOING: Record<IngestStage | 'store', string> = {
  store: 'opening the vector store',
  parsing: 'reading the PDF',
  ocr: 'recognising text (OCR)',
  rendering: 'rendering the pages',
  embedding: 'embedding',
  indexing: 'indexing',
};

let indexingQueue: Promise<unknown> = Promise.resolve();
/** Runs `work` after every indexing started before it in this process (vector store writes one manual at a time). */
export function indexingTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = indexingQueue.then(work, work);
  indexingQueue = run.catch(() => {});
  return run;
}

let sharedOcr: OcrEngine | undefined;
/** One OCR pool per process, created on first need (native tesseract when on PATH, else tesseract.js). */
function processOcrEngine(): OcrEngine {
  return (sharedOcr ??= createOcrEngine());
}

function createOcrEngine(): OcrEngine {
  const d = describeOcrEngine();
  if (d.provider === 'tesseract') return createNativeTesseractEngine({ binary: d.binary!, workers: d.workers });
  return createTesseractEngine({ workers: d.workers });
}

let sharedFigureOcr: OcrEngine | undefined;
/** The figure-label engine (PaddleOCR), one per process, or none when figures go to the page engine. */
function processFigureOcrEngine(): OcrEngine | undefined {
  if (figureEngineOf(getConfig().ocr) !== 'paddleocr') return undefined;
  return (sharedFigureOcr ??= createPaddleEngine());
}

export async function shutdownOcrEngine(): Promise<void> {
  const engines = [sharedOcr, sharedFigureOcr];
  sharedOcr = undefined;
  sharedFigureOcr = undefined;
  await Promise.all(engines.map((e) => e?.terminate()));
}

/**
 * Runs the whole pipeline for a queued manual under a lease renewed as it goes. Returns null when
 * another worker claimed it first (or reclaimed it from this one). Never throws for a bad file:
 * the manual ends `failed` with the reason.
 */
export async function ingestManual(
  manualId: string,
  deps: IngestDeps = {},
  callerSignal?: AbortSignal,
  opts: IngestOptions = {},
): Promise<IngestSummary | null> {
  const workerId = opts.workerId ?? processWorkerId();
  if (!opts.claimed && !(await claimManual(manualId, workerId))) return null;
  const lease = holdLease(manualId, workerId, 'ingest');
  try {
    const signal = callerSignal ? AbortSignal.any([callerSignal, lease.signal]) : lease.signal;
    return await runPipeline(manualId, deps, signal, workerId);
  } catch (err) {
    if (lease.signal.aborted || err instanceof LeaseLost) return null;
    throw err;
  } finally {
    lease.release();
    await endLease(manualId, workerId).catch(() => undefined);
  }
}

/**
 * The job's deadline (INGEST_JOB_TIMEOUT_S + INGEST_JOB_S_PER_PAGE × pages): aborts with the
 * reason the manual fails with. Pages each just under their own budget end here.
 */
function jobDeadline(pages: number): { signal: AbortSignal; clear(): void } {
  const { jobBaseMs, jobPerPageMs } = getConfig().ingestLimits;
  const ms = jobBaseMs + jobPerPageMs * pages;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(ingestErrors.jobTooSlow(ms)), ms);
  timer.unref();
  return { signal: deadline.signal, clear: () => clearTimeout(timer) };
}

async function runPipeline(manualId: string, deps: IngestDeps, outerSignal: AbortSignal, workerId: string): Promise<IngestSummary | null> {
  const manual = await getManual(manualId);
  if (!manual) return null;
  // The upload's inspection counted the pages; pdf.js's own count is the same file's.
  const deadline = jobDeadline(manual.pageCount ?? 0);
  try {
    return await runPipelineWithin(manual, deps, AbortSignal.any([outerSignal, deadline.signal]), workerId, deadline.signal);
  } finally {
    deadline.clear();
  }
}

async function runPipelineWithin(
  manual: Manual,
  deps: IngestDeps,
  signal: AbortSignal,
  workerId: string,
  deadline: AbortSignal,
): Promise<IngestSummary | null> {
  const manualId = manual.id;
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  let ocrPages = 0;
  let pageCount = 0;
  let chunkCount = 0;
  let current: IngestStage | 'store' = 'store';
  /** What made the vectors written (recorded on the manual with `ready`). */
  let fingerprint = '';

  const stage = async <T>(
    name: IngestStage,
    total: number,
    work: (tick: (done: number) => Promise<void>) => Promise<T>,
    /** More progress to report with each tick (e.g. how many pages need OCR, found as parsing goes). */
    more: () => Pick<Manual, 'ocrPages'> | object = () => ({}),
    /** Done already when the stage starts (the `ocr` wait starts with the recognitions finished during parsing). */
    startDone = 0,
  ): Promise<T> => {
    signal?.throwIfAborted();
    if (!(await getManual(manualId))) throw new ManualGone();
    current = name;
    await updateManual(manualId, { status: name, progressDone: startDone, progressTotal: total, ...more() });
    const start = performance.now();
    let lastWrite = 0;
    let lastDone = startDone;
    const tick = async (done: number) => {
      signal?.throwIfAborted();
      // Progress rows are cheap but not free: a write every 5 % of the stage, else at most ~4 a
      // second (a short manual's pages take less than that each, and its bar must not leap).
      // The end is written once: `rendering` ticks once per page with every image long written,
      // and 2,000 identical writes (libsql runs them on this thread) held the event loop for 18 s
      // at load ~25 while the worker's RSS climbed ~270 MB (docs/benchmarks.md).
      const now = performance.now();
      if (now - lastWrite > 250 || (done === total && lastDone !== total) || done - lastDone >= total / 20) {
        lastWrite = now;
        lastDone = done;
        // Deleting a manual mid-way is how a user cancels it: notice within a progress tick,
        // not at the end of a stage that can last many minutes on a long manual.
        if (!(await getManual(manualId))) throw new ManualGone();
        await updateManual(manualId, { progressDone: done, progressTotal: total, ...more() });
      }
    };
    const result = await work(tick);
    timings[name] = Math.round(performance.now() - start);
    return result;
  };

  /** Pages 1..flushedThrough are indexed by the text pass. */
  let flushedThrough = 0;
  let lastFlush = 0;
  /** Writes the text pass's newly ready pages (`force`: now, else at most every TEXT_FLUSH_MS). */
  const flushText = async (pass: PagePass, force = false) => {
    const through = pass.searchableThrough;
    if (through <= flushedThrough || (!force && flushedThrough > 0 && performance.now() - lastFlush < TEXT_FLUSH_MS)) return;
    const from = flushedThrough + 1;
    const pages = pass.textPages(from - TEXT_CONTEXT_PAGES, through);
    const fresh = pages.filter((p) => p.page >= from);
    const chunkRows = chunkPages(manualId, pages)
      .filter((c) => c.page >= from)
      .map(toChunkRecord);
    const ocrText = (p: PageContent) =>
      p.lines
        .filter((l) => l.ocr)
        .map((l) => l.text)
        .join('\n') || null;
    try {
      await indexTextPages(
        manualId,
        fresh.map((p) => pageRow(manualId, p, ocrText(p))),
        chunkRows,
        through,
      );
    } catch (err) {
      // Deleted since the last tick: its rows cascade away and the insert finds no manual.
      if (!(await getManual(manualId))) throw new ManualGone();
      throw err;
    }
    flushedThrough = through;
    lastFlush = performance.now();
    timings.first_searchable ??= Math.round(lastFlush - t0);
    if (through === pageCount) timings.text_searchable = Math.round(lastFlush - t0);
    await holdAtE2eGate(through, signal);
  };

  // pdf.js loads in its thread while the store opens (when no idle thread waits).
  warmPdfThread();
  // Opened inside the try: a store that is down fails the job with the reason, not the worker.
  let opened = deps.store;
  try {
    const store = (opened ??= await getVectorStore());
    current = 'parsing';
    const bytes = new Uint8Array(await fs.promises.readFile(manualSourcePath(manualId)));
    // pdf.js runs in a thread of its own: a page past its budget, or the job past its deadline, stops it.
    const doc = await openPdfInThread(bytes, { password: manual.password ?? undefined, signal });
    pageCount = doc.numPages;
    await updateManual(manualId, { pageCount, searchablePages: 0, figureLabels: 'pending' });
    const pass = new PagePass(doc, {
      manualId,
      ocr: () => deps.ocr ?? processOcrEngine(),
      figureOcr: () => (deps.ocr ? deps.figureOcr : processFigureOcrEngine()),
      signal,
      languages: getConfig().ocr.languages,
    });
    try {
      // 1–3. one pipelined pass over the pages (page-pass.ts): parsing extracts each page and starts
      // its OCR (scanned pages whole, figure regions of text pages) and its PNG + WebP preview;
      // ocr and rendering wait for what is still running in the OCR workers and the encoder.
      // Parsing reports pages finished: read, and their OCR done. A page whose recognition is still
      // running counts when the `ocr` stage sees it end, so the bar does not reach the end of the
      // pass and then stand still while the OCR workers finish (overallPercent, lib/manuals/view.ts).
      // Each tick also writes the pages whose text is ready (progressive availability).
      let pages = await stage(
        'parsing',
        pageCount,
        (tick) =>
          pass.parse(async (n) => {
            await flushText(pass);
            await tick(n - pass.ocrInFlight);
          }),
        () => ({ ocrPages: pass.scannedTotal }),
      );
      await flushText(pass, true);
      // Continues where parsing's count of finished pages stopped (overallPercent in lib/manuals/view.ts).
      // Figure labels are read here, after every text page is searchable; scanned pages still
      // being recognised become searchable as they end.
      pages = await stage(
        'ocr',
        pass.ocrTotal,
        (tick) =>
          pass.ocr(async (n) => {
            await flushText(pass);
            await tick(n);
          }),
        undefined,
        pass.ocrFinished,
      );
      await flushText(pass, true);
      const { ocrFlags, ocrTexts } = pass;
      await titleFromFirstPages(manual, pages);
      // Scanned pages, as counted while parsing: the figure the Manuals page showed all along.
      ocrPages = pass.scannedTotal;
      await stage('rendering', pageCount, (tick) => pass.images(tick));
      timings.draw = Math.round(pass.drawMs);
      // Scanned pages per language model, when several are configured (e.g. ocr_pages_ces).
      if (pass.language?.active) for (const [lang, n] of pass.language.pages) timings[`ocr_pages_${lang}`] = n;

      // 4–5. embedding and indexing, streamed a range of pages at a time: a range's chunks are cut
      // (the same chunks as cutting the whole manual: chunk.ts ManualChunker), embedded and written
      // to the vector store, then its pages' multi-vectors (up to ~200 kB a page) a batch at a
      // time, then its complete rows (figure labels included) replace the text pass's in SQLite.
      // So a 2,000-page manual never holds all its chunks, vectors or rows at once.
      // The vector store starts from a clean slate for this manual; two manuals may be processed
      // at once (worker.ts), and their index writes take turns.
      const embedder = deps.embedder ?? (await getEmbedder());
      const multiVector = deps.multiVector ?? (await getMultiVectorEmbedder());
      fingerprint = indexFingerprint(embedder, multiVector);
      let embeddingMs = 0;
      await indexingTurn(() =>
        stage('indexing', pageCount + 2, async (tick) => {
          await store.deleteManual(manualId);
          await tick(1);
          const counted = performance.now();
          const chunker = ManualChunker.over(manualId, pages);
          embeddingMs += performance.now() - counted;
          const size = progressBatch(pageCount, 2, PAGE_BATCH);
          const range = size * Math.ceil(INDEX_RANGE_PAGES / size);
          for (let from = 0; from < pageCount; from += range) {
            const rangePages = pages.slice(from, from + range);
            const started = performance.now();
            current = 'embedding';
            const chunks = chunker.chunk(rangePages);
            const vectors: Float32Array[] = [];
            for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
              vectors.push(...(await embedder.embedDocuments(chunks.slice(i, i + EMBED_BATCH).map(embeddingText), { signal })));
            }
            embeddingMs += performance.now() - started;
            current = 'indexing';
            chunkCount += chunks.length;
            await store.upsertChunks(chunks.map((c, i): ChunkRecord => ({ ...toChunkRecord(c), vector: vectors[i] })));
            for (let i = 0; i < rangePages.length; i += size) {
              const batch = rangePages.slice(i, i + size);
              const bags = await multiVector.embedPages(
                batch.map((p) => ({ text: p.text, imagePath: pageImagePath(manualId, p.page) })),
                { signal },
              );
              const pageRecords: PageRecord[] = batch.map((p, j) => ({ manualId, page: p.page, text: p.text, vectors: bags[j] }));
              await store.upsertPages(pageRecords);
              await tick(1 + from + i + batch.length);
            }
            // Each page's rows at once (one transaction): the complete ones or, until then, the text pass's.
            const pageRows = rangePages.map((p) => pageRow(manualId, p, ocrFlags.has(p.page) ? (ocrTexts.get(p.page) ?? null) : null));
            await indexTextPages(manualId, pageRows, chunks.map(toChunkRecord), pageCount);
          }
          // Structure units, from the complete pages: after every page is searchable.
          const structureStart = performance.now();
          await storeStructure(manualId, pages);
          timings.structure = Math.round(performance.now() - structureStart);
          await updateManual(manualId, { searchablePages: pageCount, figureLabels: 'done' });
          await tick(pageCount + 2);
        }),
      );
      // Reported apart, as when embedding was a stage of its own: cutting and embedding the chunks.
      timings.embedding = Math.round(embeddingMs);
      timings.indexing -= timings.embedding;
    } finally {
      // Nothing in flight may touch the document or write page images after this point.
      await pass.settle();
      await doc.close();
    }

    timings.total = Math.round(performance.now() - t0);
    // Published only by the lease holder: a worker that stalled past its lease leaves the job to
    // the one that reclaimed it.
    signal.throwIfAborted();
    if (!(await holdsLease(manualId, workerId)) && (await getManual(manualId))) throw new LeaseLost(`lease on ${manualId} lost`);
    // Which device the manual is about, read once from its (final) title and first pages.
    const row = await getManual(manualId);
    const firstPages = await Promise.all(profilePages([1, 2, 3]).map(async (n) => (await getPage(manualId, n))?.text ?? ''));
    const deviceProfile = row ? storedProfile({ id: manualId, title: row.title, fileName: row.fileName }, firstPages) : null;
    // The manual may have been deleted during the last stage: then the row update is a no-op and
    // the deleter already removed the vectors.
    await updateManual(manualId, {
      status: 'ready',
      deviceProfile,
      progressDone: 0,
      progressTotal: 0,
      ocrPages,
      timings,
      password: null,
      error: null,
      errorCode: null,
      attempts: 0,
      indexFingerprint: fingerprint,
    });
    if (!(await getManual(manualId))) await store.deleteManual(manualId);
    return { manualId, status: 'ready', pages: pageCount, ocrPages, chunks: chunkCount, timings, ms: timings.total };
  } catch (caught) {
    if (caught instanceof LeaseLost || signal.reason instanceof LeaseLost) throw caught;
    // Past the job's deadline whatever was running failed with an abort: the deadline is the reason.
    const err: unknown = deadline.aborted ? deadline.reason : caught;
    await discardPartialOutput(manualId, opened).catch((cleanupErr) => console.error('[ingest] cleanup failed', manualId, cleanupErr));
    if (err instanceof ManualGone) {
      // The deleter removed the folder already; late page images may have recreated parts of it.
      await fs.promises.rm(manualDir(manualId), { recursive: true, force: true }).catch(() => {});
      return {
        manualId,
        status: 'failed',
        pages: pageCount,
        ocrPages,
        chunks: 0,
        error: 'deleted during processing',
        timings,
        ms: Math.round(performance.now() - t0),
      };
    }
    if (signal.aborted && !deadline.aborted) throw err;
    const message = isIngestError(err) ? err.message : `Processing failed while ${DOING[current]}: ${rootCause(err)}. Upload the file again to retry.`;
    const errorCode = isIngestError(err) ? err.code : 'ingest_failed';
    // The user sees the plain message; the log keeps what the operator needs to find the cause.
    if (!isIngestError(err)) console.error('[ingest] failed', manualId, err);
    else if (err.detail) console.error('[ingest] failed', manualId, `${err.code}: ${err.detail}`);
    await updateManual(manualId, { status: 'failed', error: message, errorCode, progressDone: 0, progressTotal: 0, password: null, timings });
    return { manualId, status: 'failed', pages: pageCount, ocrPages, chunks: 0, error: message, errorCode, timings, ms: Math.round(performance.now() - t0) };
  }
}

/**
 * A manual still named after its file (no usable PDF title, no text layer on the cover at upload)
 * gets the title printed on its first pages, OCR text included. A rename is never overwritten.
 */
async function titleFromFirstPages(manual: Manual, pages: Array<Pick<PageContent, 'lines'>>): Promise<void> {
  const fallback = titleFromFileName(manual.fileName);
  if (manual.title !== fallback) return;
  const title = titleFromPages(pages);
  if (title && title !== fallback) await replaceTitleIf(manual.id, fallback, title);
}

/**
 * The message of the error that caused the failure, short enough to show: drivers wrap the cause
 * ("Failed query: insert into … params: <every chunk's text>") and that dump is no use to a person.
 */
function rootCause(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error && /^Failed query:/.test(e.message)) e = e.cause;
  const message = (e instanceof Error ? e.message : String(e)).replace(/^SQLITE_\w+: /, '').replace(/[.\s]+$/, '');
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** Heading path + text: the heading tells the embedder what the passage is about. */
export function embeddingText(c: Pick<Chunk, 'heading' | 'text'>): string {
  return c.heading ? `${c.heading}\n${c.text}` : c.text;
}

/** A page's row; `ocrText` is what OCR read on it (null: none). */
function pageRow(manualId: string, p: PageContent, ocrText: string | null): Omit<PageRow, 'manualId'> {
  return {
    number: p.page,
    width: p.width,
    height: p.height,
    text: p.text,
    ocr: ocrText !== null,
    ocrText,
    imagePath: path.relative(manualDir(manualId), pageImagePath(manualId, p.page)),
    thumbPath: path.relative(manualDir(manualId), pageThumbPath(manualId, p.page)),
  };
}

function toChunkRecord(c: Chunk): Omit<ChunkRecord, 'vector'> {
  return { id: c.id, manualId: c.manualId, page: c.page, heading: c.heading, text: c.text, ocr: c.ocr, bboxes: c.bboxes };
}
