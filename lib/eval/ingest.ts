/**
 * Gets manuals into the current DATA_DIR the way the app does (acceptUpload → ingestManual), for
 * the eval and the bench. A file already in the library (same sha256) is skipped, so a reused
 * --data-dir only costs the new files; jobs a killed run left half-done are recovered first, and
 * manuals indexed with other embedders are re-embedded (lib/ingest/reembed.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isIngestError } from '../ingest/errors';
import { ingestManual } from '../ingest/pipeline';
import { warmPdfThread } from '../ingest/pdf-thread';
import { reembedStaleManuals } from '../ingest/reembed';
import { recoverInterruptedJobs } from '../ingest/recovery';
import { acceptUpload } from '../manuals/service';
import { getManual } from '../store/manuals';

export interface IngestedFile {
  /** Base name of the file (what the QA file calls the manual). */
  file: string;
  manualId: string | null;
  status: 'ready' | 'failed';
  /** Already in the library: nothing was done. */
  duplicate: boolean;
  pages: number;
  ocrPages: number;
  chunks?: number;
  /** Per-stage ms of this run's ingest (not of an earlier run). */
  timings?: Record<string, number>;
  ms: number;
  error?: string;
}

export type Log = (message: string) => void;

/** PDFs of a folder, sorted by name. */
export function listPdfs(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort()
    .map((f) => path.join(dir, f));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a manual another process is ingesting (a server on the same DATA_DIR). */
async function waitForManual(id: string, timeoutMs = 30 * 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = await getManual(id);
    if (!m || m.status === 'ready' || m.status === 'failed' || Date.now() > until) return m;
    await sleep(1000);
  }
}

export async function ingestFile(file: string, log: Log = () => {}): Promise<IngestedFile> {
  const t0 = performance.now();
  const name = path.basename(file);
  const done = (r: Omit<IngestedFile, 'file' | 'ms'>): IngestedFile => ({ file: name, ...r, ms: Math.round(performance.now() - t0) });
  try {
    // As the ingest worker does when it starts: pdf.js loads while the upload is checked.
    warmPdfThread();
    const { manual, duplicate } = await acceptUpload(fs.createReadStream(file), name, null);
    if (duplicate && manual.status === 'ready') {
      return done({ manualId: manual.id, status: 'ready', duplicate: true, pages: manual.pageCount ?? 0, ocrPages: manual.ocrPages });
    }
    if (manual.status === 'failed') {
      return done({ manualId: manual.id, status: 'failed', duplicate, pages: manual.pageCount ?? 0, ocrPages: 0, error: manual.error ?? 'failed' });
    }
    log(`ingesting ${name} (${manual.pageCount ?? '?'} pages)…`);
    const summary = await ingestManual(manual.id);
    if (!summary) {
      const m = await waitForManual(manual.id);
      const ok = m?.status === 'ready';
      return done({ manualId: manual.id, status: ok ? 'ready' : 'failed', duplicate, pages: m?.pageCount ?? 0, ocrPages: m?.ocrPages ?? 0, ...(ok ? {} : { error: m?.error ?? 'ingest did not finish' }) });
    }
    return done({
      manualId: manual.id,
      status: summary.status,
      duplicate,
      pages: summary.pages,
      ocrPages: summary.ocrPages,
      chunks: summary.chunks,
      timings: summary.timings,
      ...(summary.error ? { error: summary.error } : {}),
    });
  } catch (err) {
    const message = isIngestError(err) ? err.message : err instanceof Error ? err.message : String(err);
    return done({ manualId: null, status: 'failed', duplicate: false, pages: 0, ocrPages: 0, error: message });
  }
}

/** Ingests every file in order (one at a time: OCR and embedding already use the cores). */
export async function ingestFiles(files: readonly string[], log: Log = () => {}): Promise<IngestedFile[]> {
  const recovered = await recoverInterruptedJobs();
  if (recovered.length) log(`recovered ${recovered.length} interrupted ingest job(s)`);
  // A reused --data-dir indexed with other embedders is re-embedded first, as the worker would.
  const reembedded = await reembedStaleManuals({}, log);
  if (reembedded) log(`re-embedded ${reembedded} manual(s) for the active embedders`);
  const out: IngestedFile[] = [];
  for (const file of files) {
    const r = await ingestFile(file, log);
    out.push(r);
    const what = r.status === 'failed' ? `FAILED: ${r.error}` : r.duplicate ? 'already ingested' : `${r.pages} pages, ${r.ocrPages} with OCR, ${(r.ms / 1000).toFixed(1)} s`;
    log(`${r.file}: ${what}`);
  }
  return out;
}
