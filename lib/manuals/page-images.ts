/**
 * Page images on disk, regenerated from the source PDF when missing (a cleaned cache, a restore
 * from backup without images…), so a page link never breaks while the PDF exists. Regeneration
 * runs in a bounded PDF worker process, never in the web server.
 */
import fs from 'node:fs';
import { getManual } from '../store/manuals';
import { pageImagePath, pageThumbPath, manualSourcePath } from '../ingest/paths';
import { isPdfPoolBusy, runPdfJob } from '../pdf-worker/pool';
import type { PdfJob } from '../pdf-worker/protocol';

/** Renders running or queued, by manual and page: concurrent requests for one page share one render. */
const state = globalThis as unknown as {
  __mcPageRenders?: Map<string, ReturnType<typeof renderJob>>;
  __mcFailedRenders?: Map<string, { at: number; reason: string }>;
  __mcRendersByClient?: Map<string, number>;
};
const renders = () => (state.__mcPageRenders ??= new Map());
const failures = () => (state.__mcFailedRenders ??= new Map());
const rendersByClient = () => (state.__mcRendersByClient ??= new Map());
/** A page that failed to render (over a limit, damaged) is not retried for this long: a hostile page cannot be replayed. */
const FAILED_RENDER_TTL_MS = 10 * 60_000;
/**
 * Renders one client (address) may have queued or running at once. Reading a page already on disk,
 * or joining a render someone started, costs nothing; past this the request is told the server is
 * busy, so one client cannot fill the PDF workers' read queue for everyone else.
 */
export const RENDERS_PER_CLIENT = 6;

/**
 * `busy`: not rendered now (this client's renders or the workers' read queue are full), try again
 * shortly; `diskFull`: a new render was refused to keep the disk reserve. Neither is remembered.
 */
export type PageImageState = { file: string } | { pending: true } | { busy: true } | { diskFull: string } | { failed: string } | null;

/**
 * The page PNG or WebP thumbnail: its path when on disk; otherwise the page is rendered in a PDF
 * worker process (lib/pdf-worker: memory and time limits), waiting at most `waitMs` for it —
 * after that `pending` (the render goes on and lands on disk). `failed` when the page cannot be
 * rendered within the limits; null when there is no such page.
 */
export async function pageImage(manualId: string, page: number, kind: 'image' | 'thumb', waitMs = Infinity, client?: string): Promise<PageImageState> {
  const target = kind === 'image' ? pageImagePath(manualId, page) : pageThumbPath(manualId, page);
  return renderOnce({ key: `${manualId}:${page}`, target, waitMs, client }, async () => {
    const manual = await getManual(manualId);
    if (!manual || !manual.pageCount || page < 1 || page > manual.pageCount) return null;
    const source = manualSourcePath(manualId);
    if (!fs.existsSync(source)) return null;
    return {
      kind: 'render',
      file: source,
      password: manual.password ?? undefined,
      page,
      imagePath: pageImagePath(manualId, page),
      thumbPath: pageThumbPath(manualId, page),
    };
  });
}

export interface RenderRequest {
  /** Concurrent requests with one key share one render. */
  key: string;
  /** The file the render writes. */
  target: string;
  /** How long the caller waits for the render before `pending` (Infinity: until it ends). */
  waitMs: number;
  /** Who asks (the client address): counted against RENDERS_PER_CLIENT when this starts a render. */
  client?: string;
  /** Checked just before a new render starts: a reason to refuse it (the disk is nearly full…), or null. */
  refuse?: () => { diskFull: string } | null;
  /** Runs after a render wrote its file (the zoom cache's size cap). */
  afterRender?: () => void;
}

/**
 * `target` when on disk; otherwise runs the job `jobFor` describes (null: no such page) in a PDF
 * worker, once for concurrent callers under `key`, remembering a failure for FAILED_RENDER_TTL_MS.
 * A refusal because the workers are busy is not a failure: it is answered `busy` and forgotten.
 */
export async function renderOnce(req: RenderRequest, jobFor: () => Promise<PdfJob | null>): Promise<PageImageState> {
  const { key, target, waitMs, client } = req;
  if (fs.existsSync(target)) return { file: target };
  const failed = failures().get(key);
  if (failed && Date.now() - failed.at < FAILED_RENDER_TTL_MS) return { failed: failed.reason };
  let render = renders().get(key);
  if (!render) {
    // Counted and shared before the first await, so a burst of concurrent requests sees every earlier one.
    if (client !== undefined && (rendersByClient().get(client) ?? 0) >= RENDERS_PER_CLIENT) return { busy: true };
    const release = client === undefined ? () => {} : holdClientSlot(client);
    render = renderJob(req, jobFor).finally(() => {
      renders().delete(key);
      release();
    });
    renders().set(key, render);
  }
  const ended = await Promise.race([render, waitMs === Infinity ? new Promise<never>(() => {}) : sleep(waitMs).then(() => 'waiting' as const)]);
  if (ended === 'waiting') return { pending: true };
  if (ended !== 'rendered') return ended;
  if (fs.existsSync(target)) return { file: target };
  return { failed: failures().get(key)?.reason ?? 'the page could not be rendered' };
}

/** One render: 'rendered' when the job ended (its file written, or its failure remembered); else what to answer instead. */
async function renderJob(req: RenderRequest, jobFor: () => Promise<PdfJob | null>): Promise<'rendered' | null | { busy: true } | { diskFull: string }> {
  const job = await jobFor();
  if (!job) return null;
  const refused = req.refuse?.();
  if (refused) return refused;
  try {
    await runPdfJob(job);
    failures().delete(req.key);
    req.afterRender?.();
  } catch (err) {
    if (isPdfPoolBusy(err)) return { busy: true };
    failures().set(req.key, { at: Date.now(), reason: (err as Error).message });
    if (failures().size > 10_000) failures().clear();
  }
  return 'rendered';
}

function holdClientSlot(client: string): () => void {
  const counts = rendersByClient();
  counts.set(client, (counts.get(client) ?? 0) + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (counts.get(client) ?? 1) - 1;
    if (left > 0) counts.set(client, left);
    else counts.delete(client);
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Path of the page PNG or WebP thumbnail, rendering it first if needed; null if no such page or it cannot be rendered. */
export async function ensurePageImage(manualId: string, page: number, kind: 'image' | 'thumb'): Promise<string | null> {
  const got = await pageImage(manualId, page, kind);
  return got && 'file' in got ? got.file : null;
}
