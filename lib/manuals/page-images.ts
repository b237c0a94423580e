/**
 * Page images on disk, regenerated from the source PDF when missing (a cleaned cache, a restore
 * from backup without images…), so a page link never breaks while the PDF exists. Regeneration
 * runs in a bounded PDF worker process, never in the web server.
 */
import fs from 'node:fs';
import { getManual } from '../store/manuals';
import { pageImagePath, pageThumbPath, manualSourcePath } from '../ingest/paths';
import { runPdfJob } from '../pdf-worker/pool';
import type { PdfJob } from '../pdf-worker/protocol';

/** Renders running or queued, by manual and page: concurrent requests for one page share one render. */
const state = globalThis as unknown as { __mcPageRenders?: Map<string, Promise<void>>; __mcFailedRenders?: Map<string, { at: number; reason: string }> };
const renders = () => (state.__mcPageRenders ??= new Map());
const failures = () => (state.__mcFailedRenders ??= new Map());
/** A page that failed to render (over a limit, damaged) is not retried for this long: a hostile page cannot be replayed. */
const FAILED_RENDER_TTL_MS = 10 * 60_000;

export type PageImageState = { file: string } | { pending: true } | { failed: string } | null;

/**
 * The page PNG or WebP thumbnail: its path when on disk; otherwise the page is rendered in a PDF
 * worker process (lib/pdf-worker: memory and time limits), waiting at most `waitMs` for it —
 * after that `pending` (the render goes on and lands on disk). `failed` when the page cannot be
 * rendered within the limits; null when there is no such page.
 */
export async function pageImage(manualId: string, page: number, kind: 'image' | 'thumb', waitMs = Infinity): Promise<PageImageState> {
  const target = kind === 'image' ? pageImagePath(manualId, page) : pageThumbPath(manualId, page);
  return renderOnce(`${manualId}:${page}`, target, waitMs, async () => {
    const manual = await getManual(manualId);
    if (!manual || !manual.pageCount || page < 1 || page > manual.pageCount) return null;
    const source = manualSourcePath(manualId);
    if (!fs.existsSync(source)) return null;
    return { kind: 'render', file: source, password: manual.password ?? undefined, page, imagePath: pageImagePath(manualId, page), thumbPath: pageThumbPath(manualId, page) };
  });
}

/**
 * `target` when on disk; otherwise runs the job `jobFor` describes (null: no such page) in a PDF
 * worker, once for concurrent callers under `key`, remembering a failure for FAILED_RENDER_TTL_MS.
 */
export async function renderOnce(key: string, target: string, waitMs: number, jobFor: () => Promise<PdfJob | null>): Promise<PageImageState> {
  if (fs.existsSync(target)) return { file: target };
  const failed = failures().get(key);
  if (failed && Date.now() - failed.at < FAILED_RENDER_TTL_MS) return { failed: failed.reason };
  let render = renders().get(key);
  if (!render) {
    const job = await jobFor();
    if (!job) return null;
    // Another caller may have started it while this one looked the manual up.
    render = renders().get(key);
    if (!render) {
      render = runPdfJob(job)
        .then(() => {
          failures().delete(key);
        })
        .catch((err: Error) => {
          failures().set(key, { at: Date.now(), reason: err.message });
          if (failures().size > 10_000) failures().clear();
        })
        .finally(() => renders().delete(key));
      renders().set(key, render);
    }
  }
  const waited = await Promise.race([render.then(() => true), waitMs === Infinity ? new Promise<never>(() => {}) : sleep(waitMs).then(() => false)]);
  if (!waited) return { pending: true };
  if (fs.existsSync(target)) return { file: target };
  return { failed: failures().get(key)?.reason ?? 'the page could not be rendered' };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Path of the page PNG or WebP thumbnail, rendering it first if needed; null if no such page or it cannot be rendered. */
export async function ensurePageImage(manualId: string, page: number, kind: 'image' | 'thumb'): Promise<string | null> {
  const got = await pageImage(manualId, page, kind);
  return got && 'file' in got ? got.file : null;
}
