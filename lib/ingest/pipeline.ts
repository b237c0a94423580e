/**
 * The staged ingest of one manual: queued → parsing → ocr → rendering → embedding → indexing →
 * ready (or failed with the reason). Progress is written to the manuals row as it goes, so any
 * process (the web server, the CLI) can show it.
 *
 * Consistency: nothing becomes searchable before the last stage, and a failure (or a crash found
 * on the next start) removes whatever the job had written, so a manual is never half-indexed.
 */
import fs from 'node:fs';
import { getEmbedder, getMultiVectorEmbedder, getVectorStore } from '../providers';
import type { ChunkRecord, Embedder, MultiVectorEmbedder, PageRecord, VectorStore } from '../providers/types';
import { clearPagesAndChunks, getManual, replacePagesAndChunks, updateManual, type ChunkRow, type Manual, type PageRow } from '../store/manuals';
import { claimManual } from '../store/jobs';
import { chunkPages, type Chunk } from './chunk';
import { isIngestError } from './errors';
import { type OcrEngine, createTesseractEngine } from './ocr';
import { ocrPage, planOcr, withOcrLines } from './ocr-page';
import { pageImagePath, pageThumbPath, manualDir, manualSourcePath } from './paths';
import { openPdf, type PageContent } from './pdf';
import { writePageImages } from './page-images';
import { PAGE_SCALE } from './render';
import path from 'node:path';

export type IngestStage = 'parsing' | 'ocr' | 'rendering' | 'embedding' | 'indexing';

export interface IngestDeps {
  embedder?: Embedder;
  multiVector?: MultiVectorEmbedder;
  store?: VectorStore;
  ocr?: OcrEngine;
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

const EMBED_BATCH = 64;

let sharedOcr: OcrEngine | undefined;
/** One OCR pool per process, created on first need (loading tesseract costs ~1 s). */
export function processOcrEngine(): OcrEngine {
  return (sharedOcr ??= createTesseractEngine());
}

export async function shutdownOcrEngine(): Promise<void> {
  const engine = sharedOcr;
  sharedOcr = undefined;
  await engine?.terminate();
}

/**
 * Runs the whole pipeline for a queued manual. Returns null when another process claimed it
 * first. Never throws for a bad file: the manual ends `failed` with the reason.
 */
export async function ingestManual(manualId: string, deps: IngestDeps = {}, signal?: AbortSignal): Promise<IngestSummary | null> {
  if (!(await claimManual(manualId))) return null;
  const manual = (await getManual(manualId))!;
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  let ocrPages = 0;
  let pageCount = 0;
  let chunkCount = 0;

  const stage = async <T>(name: IngestStage, total: number, work: (tick: (done: number) => Promise<void>) => Promise<T>): Promise<T> => {
    signal?.throwIfAborted();
    if (!(await getManual(manualId))) throw new ManualGone();
    await updateManual(manualId, { status: name, progressDone: 0, progressTotal: total });
    const start = performance.now();
    let lastWrite = 0;
    const tick = async (done: number) => {
      signal?.throwIfAborted();
      // Progress rows are cheap but not free: at most ~4 writes a second.
      const now = performance.now();
      if (now - lastWrite > 250 || done === total) {
        lastWrite = now;
        await updateManual(manualId, { progressDone: done, progressTotal: total });
      }
    };
    const result = await work(tick);
    timings[name] = Math.round(performance.now() - start);
    return result;
  };

  const store = deps.store ?? (await getVectorStore());
  try {
    const bytes = new Uint8Array(await fs.promises.readFile(manualSourcePath(manualId)));
    const doc = await openPdf(bytes, { password: manual.password ?? undefined, maxBytes: Infinity });
    pageCount = doc.numPages;
    await updateManual(manualId, { pageCount });
    try {
      // 1. parsing: positioned text, reading order, headings, image regions
      let pages = await stage('parsing', pageCount, async (tick) => {
        const out: PageContent[] = [];
        for (let n = 1; n <= pageCount; n++) {
          out.push(await doc.extractPage(n));
          await tick(n);
        }
        return out;
      });

      // 2. ocr: scanned pages whole, image regions of text pages (labels in figures and photos)
      const ocrFlags = new Set<number>();
      const ocrTexts = new Map<number, string>();
      const needOcr = pages.filter((p) => planOcr(p).length > 0);
      pages = await stage('ocr', needOcr.length, async (tick) => {
        if (needOcr.length === 0) return pages;
        const engine = deps.ocr ?? processOcrEngine();
        const updated = [...pages];
        let done = 0;
        // The engine is a worker pool: keep it busy with as many pages as it has workers.
        const queue = [...needOcr];
        const work = async () => {
          for (let p = queue.shift(); p; p = queue.shift()) {
            const result = await ocrPage(doc, p, engine, { signal });
            const lines = result.regions.flatMap((r) => r.lines);
            if (lines.length) {
              ocrFlags.add(p.page);
              ocrTexts.set(p.page, lines.map((l) => l.text).join('\n'));
              updated[p.page - 1] = withOcrLines(p, result.regions);
            }
            await tick(++done);
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, engine.concurrency) }, work));
        return updated;
      });
      ocrPages = ocrFlags.size;

      // 3. rendering: page PNG (~1.5×) + WebP thumbnail for previews and the VLM
      await stage('rendering', pageCount, async (tick) => {
        for (let n = 1; n <= pageCount; n++) {
          const rendered = await doc.renderPage(n, { scale: PAGE_SCALE });
          await writePageImages(manualId, n, rendered.png);
          await tick(n);
        }
      });

      // 4. embedding: dense chunk vectors, then page multi-vectors
      const chunks = chunkPages(manualId, pages);
      chunkCount = chunks.length;
      const embedder = deps.embedder ?? (await getEmbedder());
      const multiVector = deps.multiVector ?? (await getMultiVectorEmbedder());
      const { chunkVectors, pageVectors } = await stage('embedding', chunks.length + pageCount, async (tick) => {
        const chunkVectors: Float32Array[] = [];
        for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
          const batch = chunks.slice(i, i + EMBED_BATCH).map(embeddingText);
          chunkVectors.push(...(await embedder.embedDocuments(batch, { signal })));
          await tick(chunkVectors.length);
        }
        const pageVectors: Float32Array[][] = [];
        for (let i = 0; i < pageCount; i += 16) {
          const batch = pages.slice(i, i + 16).map((p) => ({ text: p.text, imagePath: pageImagePath(manualId, p.page) }));
          pageVectors.push(...(await multiVector.embedPages(batch, { signal })));
          await tick(chunks.length + pageVectors.length);
        }
        return { chunkVectors, pageVectors };
      });

      // 5. indexing: vector store first (clean slate for this manual), then SQLite in one transaction
      await stage('indexing', 3, async (tick) => {
        await store.deleteManual(manualId);
        const chunkRecords: ChunkRecord[] = chunks.map((c, i) => ({ ...toChunkRecord(c), vector: chunkVectors[i] }));
        await store.upsertChunks(chunkRecords);
        await tick(1);
        const pageRecords: PageRecord[] = pages.map((p, i) => ({ manualId, page: p.page, text: p.text, vectors: pageVectors[i] }));
        await store.upsertPages(pageRecords);
        await tick(2);
        const pageRows: Array<Omit<PageRow, 'manualId'>> = pages.map((p) => ({
          number: p.page,
          width: p.width,
          height: p.height,
          text: p.text,
          ocr: ocrFlags.has(p.page),
          ocrText: ocrTexts.get(p.page) ?? null,
          imagePath: path.relative(manualDir(manualId), pageImagePath(manualId, p.page)),
          thumbPath: path.relative(manualDir(manualId), pageThumbPath(manualId, p.page)),
        }));
        const chunkRows: ChunkRow[] = chunks.map((c) => ({ ...toChunkRecord(c) }));
        await replacePagesAndChunks(manualId, pageRows, chunkRows);
        await tick(3);
      });
    } finally {
      await doc.close();
    }

    timings.total = Math.round(performance.now() - t0);
    // The manual may have been deleted during the last stage: then the row update is a no-op and
    // the deleter already removed the vectors.
    await updateManual(manualId, { status: 'ready', progressDone: 0, progressTotal: 0, ocrPages, timings, password: null, error: null, errorCode: null, attempts: 0 });
    if (!(await getManual(manualId))) await store.deleteManual(manualId);
    return { manualId, status: 'ready', pages: pageCount, ocrPages, chunks: chunkCount, timings, ms: timings.total };
  } catch (err) {
    await discardPartialOutput(manualId, store).catch((cleanupErr) => console.error('[ingest] cleanup failed', manualId, cleanupErr));
    if (err instanceof ManualGone) {
      return { manualId, status: 'failed', pages: pageCount, ocrPages, chunks: 0, error: 'deleted during processing', timings, ms: Math.round(performance.now() - t0) };
    }
    if (signal?.aborted) throw err;
    const message = isIngestError(err) ? err.message : `Processing failed: ${err instanceof Error ? err.message : String(err)}`;
    const errorCode = isIngestError(err) ? err.code : 'ingest_failed';
    if (!isIngestError(err)) console.error('[ingest] failed', manualId, err);
    await updateManual(manualId, { status: 'failed', error: message, errorCode, progressDone: 0, progressTotal: 0, password: null, timings });
    return { manualId, status: 'failed', pages: pageCount, ocrPages, chunks: 0, error: message, errorCode, timings, ms: Math.round(performance.now() - t0) };
  }
}

/** Removes everything a job may have written for a manual except its source PDF. */
export async function discardPartialOutput(manualId: string, store?: VectorStore): Promise<void> {
  await (store ?? (await getVectorStore())).deleteManual(manualId);
  await clearPagesAndChunks(manualId);
  fs.rmSync(path.join(manualDir(manualId), 'pages'), { recursive: true, force: true });
  fs.rmSync(path.join(manualDir(manualId), 'thumbs'), { recursive: true, force: true });
}

/** Heading path + text: the heading tells the embedder what the passage is about. */
function embeddingText(c: Chunk): string {
  return c.heading ? `${c.heading}\n${c.text}` : c.text;
}

function toChunkRecord(c: Chunk): Omit<ChunkRecord, 'vector'> {
  return { id: c.id, manualId: c.manualId, page: c.page, heading: c.heading, text: c.text, ocr: c.ocr, bboxes: c.bboxes };
}

export type { Manual };
