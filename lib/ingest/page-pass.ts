/**
 * The first three ingest stages as one pass over the pages, pipelined. For each page, on this
 * thread: extract the text layer and image regions, draw the regions that need OCR and hand them
 * to the OCR pool (a scanned page is drawn once: its preview is downscaled from the OCR render, off
 * this thread). Recognition (tesseract workers) and PNG/WebP encoding (libuv thread pool) of page n
 * run while page n+1 is being extracted, so the cores are busy together instead of one stage after
 * the other. A text page's preview is drawn later, in `rendering`: drawing costs several times what
 * extracting does, and a page's text should not wait for the previews before it.
 *
 * The pipeline still reports three stages: `parsing` covers the pass itself, `ocr` the figure-label
 * pass and the recognitions still running, `rendering` the text pages' previews and the last image files.
 * Work in flight is bounded (OCR pages and image encodings) so memory stays flat on long manuals.
 *
 * Progressive availability: a page's text is ready once it is extracted (a scanned page: once its
 * recognition ends), and `searchableThrough` / `textPages` hand the pipeline the pages it can
 * index while the pass goes on. Figure labels (OCR of the figure regions of text pages) are a
 * later pass (`ocr`, after `parse`): started during the pass they would compete with it for the
 * cores and slow the text of every page down to make some labels come earlier.
 */
import type { OcrEngine, OcrResult } from './ocr';
import { ManualLanguage, ocrLanguageCandidates } from './ocr-language';
import { type PageOcrResult, planOcr, startPageOcr, withOcrLines } from './ocr-page';
import { writePageImagesRaw } from './page-images';
import type { PageContent, PdfDoc } from './pdf';
import { PAGE_SCALE, pageRenderSize, type RawImage } from './render';

export interface PagePassOptions {
  manualId: string;
  /** The OCR engine, asked for only when a page needs OCR (creating the tesseract pool costs ~1 s). */
  ocr: () => OcrEngine;
  /** The engine for figure regions of text pages (PaddleOCR), when one is configured; asked for lazily too. */
  figureOcr?: () => OcrEngine | undefined;
  signal?: AbortSignal;
  /** OCR pages in flight beyond the engine's concurrency before the pass waits (default 2). */
  ocrAhead?: number;
  /** Page images being encoded and written at once (default 3). */
  imagesInFlight?: number;
  /**
   * OCR_LANGUAGES: scanned pages are identified among these (those the engine has a model for)
   * and read with the matching model; English only when absent.
   */
  languages?: readonly string[];
  /** Read figure labels while the pass goes on instead of after it (default: after). */
  figuresDuringPass?: boolean;
}

type Tick = (done: number) => Promise<void>;

/** Pages between pdf.js cache cleanups (measured: heap -12 MB per 400 pages, no cost to speak of). */
const CLEANUP_EVERY = 100;

export class PagePass {
  private readonly pages: PageContent[] = [];
  private readonly ocrJobs: Array<{ page: number; result: Promise<PageOcrResult> }> = [];
  private readonly imageJobs: Array<Promise<void>> = [];
  private readonly cache = new Map<string, Promise<OcrResult>>();
  private ocrDone = 0;
  private imagesDone = 0;
  /** Text pages whose previews the `rendering` stage draws. */
  private readonly previews: number[] = [];
  /** Text pages whose figure regions are read after the pass (the figure-label pass). */
  private readonly deferred: Array<{ page: number; targets: ReturnType<typeof planOcr> }> = [];
  /** Scanned pages: their text is ready when their recognition ends (merged here as it does). */
  private readonly scannedPages = new Map<number, PageContent | null>();
  private textThrough = 0;
  /** Main-thread time spent drawing previews and OCR regions (ms), for the timings record. */
  drawMs = 0;
  readonly ocrFlags = new Set<number>();
  readonly ocrTexts = new Map<number, string>();
  /** Scanned pages read per language model (set once a page needed OCR). */
  language?: ManualLanguage;

  constructor(
    private readonly doc: PdfDoc,
    private readonly opts: PagePassOptions,
  ) {}

  /** Pages whose OCR was started by parse() or waits for the figure-label pass: the total of the `ocr` stage. */
  get ocrTotal(): number {
    return this.ocrJobs.length + this.deferred.length;
  }

  /** Pages 1..N whose text is ready to index (extracted; a scanned page, recognised). */
  get searchableThrough(): number {
    while (this.textThrough < this.pages.length && this.scannedPages.get(this.textThrough + 1) !== null) this.textThrough++;
    return this.textThrough;
  }

  /** Pages `from`..`to` (1-based, inclusive) as the text pass indexes them: a scanned page with its recognised lines. */
  textPages(from: number, to: number): PageContent[] {
    const out: PageContent[] = [];
    for (let n = Math.max(1, from); n <= to; n++) out.push(this.scannedPages.get(n) ?? this.pages[n - 1]);
    return out;
  }

  /**
   * Scanned pages: those without a usable text layer, which OCR reads whole. Decided per page when
   * it is planned (planOcr), so the count only grows while parsing and ends where it started being
   * right; figure regions of text pages are read by OCR too but are no scanned page.
   */
  scannedTotal = 0;

  /** Recognitions finished so far (the `ocr` stage's progress). */
  get ocrFinished(): number {
    return this.ocrDone;
  }

  /** Recognitions not finished yet: started, or waiting for the figure-label pass. */
  get ocrInFlight(): number {
    return this.ocrJobs.length + this.deferred.length - this.ocrDone;
  }

  /** Stage `parsing`: extracts every page and starts its OCR and its image files. */
  async parse(tick: Tick): Promise<PageContent[]> {
    const { doc, opts } = this;
    const ahead = opts.ocrAhead ?? 2;
    const maxImages = opts.imagesInFlight ?? 3;
    let engine: OcrEngine | undefined;
    const pendingOcr = new Set<Promise<unknown>>();
    const pendingImages = new Set<Promise<unknown>>();
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.extractPage(n);
      this.pages.push(page);
      const targets = planOcr(page);
      /** A render of the whole page for OCR (scanned pages), sharp enough to make the preview from. */
      let wholePage: RawImage | undefined;
      const scanned = targets.some((t) => t.mode === 'page');
      if (scanned) {
        this.scannedTotal++;
        this.scannedPages.set(n, null);
      }
      if (targets.length && !scanned && !opts.figuresDuringPass) this.deferred.push({ page: n, targets });
      else if (targets.length) {
        engine ??= opts.ocr();
        this.language ??= new ManualLanguage(ocrLanguageCandidates(opts.languages ?? [], engine.languages));
        // Enough pages queued to keep every OCR worker busy: wait for one before drawing more.
        while (pendingOcr.size >= engine.concurrency + ahead) await Promise.race(pendingOcr);
        const t = performance.now();
        const figureEngine = targets.some((t) => t.mode === 'sparse') ? opts.figureOcr?.() : undefined;
        const job = startPageOcr(doc, page, engine, { targets, figureEngine, signal: opts.signal, cache: this.cache, language: this.language });
        const result = job.result.then((r) => {
          this.ocrDone++;
          if (scanned) this.scannedPages.set(n, withOcrLines(page, r.regions));
          return r;
        });
        this.ocrJobs.push({ page: n, result });
        const settled = result.then(noop, noop);
        pendingOcr.add(settled);
        void settled.then(() => pendingOcr.delete(settled));
        wholePage = await job.rendered;
        this.drawMs += performance.now() - t;
      }
      // A scanned page's preview comes from its OCR render now; a text page's is drawn in the
      // `rendering` stage, so drawing previews never holds back the next page's text.
      const preview = wholePage ? pageRenderSize(page.width, page.height, PAGE_SCALE) : undefined;
      const sharper = wholePage && preview && wholePage.width >= preview.width && wholePage.height >= preview.height ? wholePage : undefined;
      if (sharper) {
        while (pendingImages.size >= maxImages) await Promise.race(pendingImages);
        const settled = this.writeImages(n, sharper, preview);
        pendingImages.add(settled);
        void settled.then(() => pendingImages.delete(settled));
      } else this.previews.push(n);
      // No render is in flight here (the OCR render was awaited; OCR runs off the document):
      // drop pdf.js's per-document caches now and then so they do not grow with the manual.
      if (n % CLEANUP_EVERY === 0) await doc.cleanup();
      await tick(n);
    }
    return this.pages;
  }

  /** Encodes and writes a page's image files; the returned promise settles when they are written or failed. */
  private writeImages(n: number, raw: RawImage, size?: { width: number; height: number }): Promise<void> {
    const write = writePageImagesRaw(this.opts.manualId, n, raw, size).then(() => {
      this.imagesDone++;
    });
    this.imageJobs.push(write);
    const settled = write.then(noop, noop);
    return settled;
  }

  /**
   * Stage `ocr`: the figure-label pass (the figure regions of text pages, drawn and read now,
   * as many in flight as the engine reads at once plus `ocrAhead`), then waits for every
   * recognition and merges their lines into the pages.
   */
  async ocr(tick: Tick): Promise<PageContent[]> {
    const out = [...this.pages];
    await tick(this.ocrDone);
    const pending = new Set<Promise<unknown>>();
    let drawn = 0;
    while (this.deferred.length) {
      const engine = this.opts.ocr();
      this.language ??= new ManualLanguage(ocrLanguageCandidates(this.opts.languages ?? [], engine.languages));
      while (pending.size >= engine.concurrency + (this.opts.ocrAhead ?? 2)) await Promise.race(pending);
      // Taken off the list as its job is pushed, so ocrTotal never counts a page twice.
      const { page: n, targets } = this.deferred.shift()!;
      const t = performance.now();
      const job = startPageOcr(this.doc, this.pages[n - 1], engine, {
        targets,
        figureEngine: this.opts.figureOcr?.(),
        signal: this.opts.signal,
        cache: this.cache,
        language: this.language,
      });
      const result = job.result.then((r) => {
        this.ocrDone++;
        return r;
      });
      this.ocrJobs.push({ page: n, result });
      const settled = result.then(noop, noop);
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      await job.rendered;
      this.drawMs += performance.now() - t;
      // As in parse(): no render in flight here, so pdf.js's caches can be dropped now and then.
      if (++drawn % CLEANUP_EVERY === 0) await this.doc.cleanup();
      await tick(this.ocrDone);
      await nextTurn();
    }
    for (const job of this.ocrJobs) {
      const result = await job.result;
      const lines = result.regions.flatMap((r) => r.lines);
      if (lines.length) {
        this.ocrFlags.add(job.page);
        this.ocrTexts.set(job.page, lines.map((l) => l.text).join('\n'));
        out[job.page - 1] = withOcrLines(out[job.page - 1], result.regions);
      }
      await tick(this.ocrDone);
      await nextTurn();
    }
    return out;
  }

  /** Stage `rendering`: draws the text pages' previews and waits for every page image to be written. */
  async images(tick: Tick): Promise<void> {
    await tick(this.imagesDone);
    const pending = new Set<Promise<void>>();
    for (const [i, n] of this.previews.entries()) {
      while (pending.size >= (this.opts.imagesInFlight ?? 3)) await Promise.race(pending);
      const t = performance.now();
      const raw = await this.doc.renderPageRaw(n, { scale: PAGE_SCALE });
      this.drawMs += performance.now() - t;
      const settled = this.writeImages(n, raw);
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      // As in parse(): no render in flight here, so pdf.js's caches can be dropped now and then.
      if ((i + 1) % CLEANUP_EVERY === 0) await this.doc.cleanup();
      await tick(this.imagesDone);
    }
    for (const job of this.imageJobs) {
      await job;
      await tick(this.imagesDone);
    }
  }

  /**
   * Waits for everything still in flight, ignoring failures: call it before the document is closed
   * or a failed job's files are removed, so no late write lands after the cleanup.
   */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.ocrJobs.map((j) => j.result), ...this.imageJobs]);
  }
}

function noop() {}

/**
 * A turn of the event loop. These loops can go on for many seconds on settled promises and
 * synchronous work (drawing, libsql progress writes) without one, and the native memory of the
 * renders they finished is only released when the loop turns: the 2,000-page manual's worker
 * climbed from ~740 to 950 MB at the end of this stage without it, 685 MB at most with it.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
