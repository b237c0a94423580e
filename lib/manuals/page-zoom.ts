/**
 * Sharper page images for zooming in: the stored page image is drawn at 1.5 px per point (~800 px
 * wide), soft once a reader zooms past 100 % and pixelated at 300 %. A zoomed page is rendered
 * from the PDF at 3 or 4.5 px per point on first request — in a PDF worker process, under its
 * memory and time limits, never in the web server — and kept beside the page images.
 */
import fs from 'node:fs';
import path from 'node:path';
import { manualDir, manualSourcePath } from '../ingest/paths';
import { ZOOM_SCALES, type ZoomScale } from '../pdf-worker/protocol';
import { getManual } from '../store/manuals';
import { renderOnce, type PageImageState } from './page-images';

/** The scale a `?scale=` parameter names, if it is one on offer. */
export function zoomScaleOf(param: string | null): ZoomScale | undefined {
  return ZOOM_SCALES.find((s) => String(s) === param);
}

/**
 * The page rendered at `scale`: its file, rendered once (concurrent requests share the render; a
 * failed one is not retried for a while); null when there is no such page or source.
 */
export function zoomImage(manualId: string, page: number, scale: ZoomScale): Promise<PageImageState> {
  const file = path.join(manualDir(manualId), 'zoom', `${page}@${scale}.png`);
  return renderOnce(`${manualId}:${page}@${scale}`, file, Infinity, async () => {
    const manual = await getManual(manualId);
    if (!manual || manual.status !== 'ready' || !manual.pageCount || page < 1 || page > manual.pageCount) return null;
    // A password-protected PDF keeps no password after ingest: its zoom stays at the stored image.
    if (manual.password !== null || manual.errorCode !== null) return null;
    const source = manualSourcePath(manualId);
    if (!fs.existsSync(source)) return null;
    return { kind: 'zoom', file: source, page, scale, imagePath: file };
  });
}
