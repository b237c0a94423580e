/**
 * Sharper page images for zooming in: the stored page image is drawn at 1.5 px per point (~800 px
 * wide), soft once a reader zooms past 100 % and pixelated at 300 %. A zoomed page is rendered
 * from the PDF at 3 or 4.5 px per point on first request — in a PDF worker process, under its
 * memory and time limits, never in the web server — and kept beside the page images.
 *
 * Zoom renders are a cache anyone who may read can fill, so they are held to the disk: a new one
 * is refused while the disk is near the reserve uploads and the database need (MC_MIN_FREE_MB),
 * and all of them together stay under ZOOM_CACHE_MAX_BYTES, the oldest removed first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { filesDir, manualDir, manualSourcePath } from '../ingest/paths';
import { ZOOM_SCALES, type ZoomScale } from '../pdf-worker/protocol';
import { freeBytes, minFreeBytes } from '../runtime/disk-space';
import { getManual } from '../store/manuals';
import { renderOnce, type PageImageState } from './page-images';

const MB = 1024 * 1024;
/** All zoom renders of all manuals together; past this the oldest are removed. */
export const ZOOM_CACHE_MAX_BYTES = 256 * MB;
/** Room one zoom render may need beyond the reserve (a 24-megapixel PNG stays well under it). */
const ZOOM_RENDER_ROOM_BYTES = 64 * MB;

/** What a reader is told when a zoom render is refused for disk space (HTTP 507). */
export const ZOOM_DISK_FULL_MESSAGE = 'The server’s disk is nearly full, so sharper zoom images are not being made. The page itself still shows.';

/** The scale a `?scale=` parameter names, if it is one on offer. */
export function zoomScaleOf(param: string | null): ZoomScale | undefined {
  return ZOOM_SCALES.find((s) => String(s) === param);
}

/**
 * The page rendered at `scale`: its file, rendered once (concurrent requests share the render; a
 * failed one is not retried for a while); null when there is no such page or source; `diskFull`
 * when a new render would eat into the disk reserve; `busy` when `client` has too many renders
 * running or the PDF workers' read queue is full.
 */
export function zoomImage(manualId: string, page: number, scale: ZoomScale, client?: string): Promise<PageImageState> {
  const file = path.join(manualDir(manualId), 'zoom', `${page}@${scale}.png`);
  const refuse = () => (freeBytes(filesDir()) - minFreeBytes() < ZOOM_RENDER_ROOM_BYTES ? { diskFull: ZOOM_DISK_FULL_MESSAGE } : null);
  return renderOnce(
    { key: `${manualId}:${page}@${scale}`, target: file, waitMs: Infinity, client, refuse, afterRender: () => evictZoomRenders() },
    async () => {
      const manual = await getManual(manualId);
      if (!manual || manual.status !== 'ready' || !manual.pageCount || page < 1 || page > manual.pageCount) return null;
      // A password-protected PDF keeps no password after ingest: its zoom stays at the stored image.
      if (manual.password !== null || manual.errorCode !== null) return null;
      const source = manualSourcePath(manualId);
      if (!fs.existsSync(source)) return null;
      return { kind: 'zoom', file: source, page, scale, imagePath: file };
    },
  );
}

/** Removes the oldest zoom renders (of every manual) until they take at most `maxBytes`. Returns how many it removed. */
export function evictZoomRenders(maxBytes = ZOOM_CACHE_MAX_BYTES): number {
  const root = filesDir('manuals');
  const files: Array<{ file: string; size: number; at: number }> = [];
  for (const id of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const dir = path.join(root, id, 'zoom');
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (!name.endsWith('.png')) continue;
      const st = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
      if (st) files.push({ file: path.join(dir, name), size: st.size, at: st.mtimeMs });
    }
  }
  let total = files.reduce((sum, f) => sum + f.size, 0);
  let removed = 0;
  for (const f of files.sort((a, b) => a.at - b.at)) {
    if (total <= maxBytes) break;
    fs.rmSync(f.file, { force: true });
    total -= f.size;
    removed++;
  }
  return removed;
}
