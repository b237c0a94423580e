/**
 * Sharper page images for zooming in: the stored page image is drawn at 1.5 px per point (~800 px
 * wide), soft once a reader zooms past 100 % and pixelated at 300 %. A zoomed page is rendered
 * from the PDF at 3 or 4.5 px per point on first request and kept beside the page images.
 */
import fs from 'node:fs';
import path from 'node:path';
import { manualDir, manualSourcePath } from '../ingest/paths';
import { runPdfJob } from '../pdf-worker/pool';
import { getManual } from '../store/manuals';

/** The zoom renders on offer (pixels per point). More would pass the renderer's pixel cap on most pages anyway. */
export const ZOOM_SCALES = [3, 4.5] as const;

const rendering = new Map<string, Promise<string | null>>();

/**
 * Path of the page rendered at `scale`, rendering it once; null when there is no such page or
 * source, or the render failed. Renders run in the bounded PDF workers (issue 34: a hostile page
 * rendered here took the web server from 314 to 1,216 MB).
 */
export function ensureZoomImage(manualId: string, page: number, scale: (typeof ZOOM_SCALES)[number]): Promise<string | null> {
  const file = path.join(manualDir(manualId), 'zoom', `${page}@${scale}.png`);
  if (fs.existsSync(file)) return Promise.resolve(file);
  // Concurrent requests for the same render share it.
  let job = rendering.get(file);
  if (!job) {
    job = render(manualId, page, scale, file).finally(() => rendering.delete(file));
    rendering.set(file, job);
  }
  return job;
}

async function render(manualId: string, page: number, scale: number, file: string): Promise<string | null> {
  const manual = await getManual(manualId);
  if (!manual || manual.status !== 'ready' || !manual.pageCount || page > manual.pageCount) return null;
  const source = manualSourcePath(manualId);
  if (!fs.existsSync(source)) return null;
  // A password-protected PDF keeps no password after ingest: its zoom stays at the stored image.
  if (manual.password === null && manual.errorCode === null) {
    const rendered = await runPdfJob({ kind: 'zoom', file: source, page, scale, imagePath: file }).catch((err: unknown) => {
      console.error(`[zoom] ${manualId} page ${page}: ${err instanceof Error ? err.message : err}`);
      return null;
    });
    return rendered ? file : null;
  }
  return null;
}
