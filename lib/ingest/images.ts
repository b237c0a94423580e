/**
 * Raster image regions of a page, from pdf.js's operator list: every image-painting operator
 * draws the unit square through the current transform, so tracking save/restore/transform gives
 * each image's box. OCR then runs on these regions only, not on the whole text page.
 */
import { type BBox, type Matrix, IDENTITY, applyPoint, area, boxOfPoints, intersect, multiply, union } from './geometry';
import type { Pdfjs } from './pdfjs';

export interface ImageRegion {
  /** Page coordinates (points, top-left origin), clipped to the page. */
  bbox: BBox;
  /** Pixel size of the largest image drawn there (0 if unknown), to pick an OCR scale. */
  pixelWidth: number;
  pixelHeight: number;
}

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[][];
}

export interface ImageFilter {
  /** Smallest side, in points, worth OCR (icons and bullets are smaller). */
  minSide?: number;
  /** Smallest area as a fraction of the page area. */
  minAreaFraction?: number;
}

/**
 * Walks the operator list. `viewportTransform` maps PDF user space to top-left page coordinates
 * (page.getViewport({ scale: 1 }).transform), which also accounts for /Rotate and the crop box.
 */
export function findImageRegions(
  ops: Pdfjs['OPS'],
  opList: OperatorList,
  viewportTransform: readonly number[],
  page: { width: number; height: number },
  filter: ImageFilter = {},
): ImageRegion[] {
  const minSide = filter.minSide ?? 24;
  const minArea = (filter.minAreaFraction ?? 0.004) * page.width * page.height;
  const pageBox: BBox = { x: 0, y: 0, w: page.width, h: page.height };
  const stack: Matrix[] = [];
  let ctm: Matrix = [...IDENTITY];
  const found: ImageRegion[] = [];

  const paint = (pixelWidth: number, pixelHeight: number) => {
    const m = multiply(ctm, viewportTransform);
    const box = boxOfPoints([applyPoint(m, 0, 0), applyPoint(m, 1, 0), applyPoint(m, 0, 1), applyPoint(m, 1, 1)]);
    const clipped = intersect(box, pageBox);
    if (clipped) found.push({ bbox: clipped, pixelWidth, pixelHeight });
  };

  for (let i = 0; i < opList.fnArray.length; i++) {
    const fn = opList.fnArray[i];
    const args = opList.argsArray[i] ?? [];
    switch (fn) {
      case ops.save:
        stack.push(ctm);
        break;
      case ops.restore:
        ctm = stack.pop() ?? [...IDENTITY];
        break;
      case ops.transform:
        ctm = multiply(Array.from(args as ArrayLike<number>), ctm);
        break;
      case ops.paintFormXObjectBegin: {
        // Form XObjects carry their own matrix and restore the state when they end.
        stack.push(ctm);
        const matrix = args[0] as ArrayLike<number> | null | undefined;
        if (matrix && matrix.length === 6) ctm = multiply(Array.from(matrix), ctm);
        break;
      }
      case ops.paintFormXObjectEnd:
        ctm = stack.pop() ?? [...IDENTITY];
        break;
      case ops.paintImageXObject:
      case ops.paintImageXObjectRepeat:
        paint(Number(args[1]) || 0, Number(args[2]) || 0);
        break;
      case ops.paintImageMaskXObject:
      case ops.paintInlineImageXObject: {
        const img = args[0] as { width?: number; height?: number } | undefined;
        paint(img?.width ?? 0, img?.height ?? 0);
        break;
      }
      case ops.paintInlineImageXObjectGroup:
      case ops.paintImageMaskXObjectGroup:
        paint(0, 0);
        break;
    }
  }
  return mergeRegions(found).filter((r) => Math.min(r.bbox.w, r.bbox.h) >= minSide && area(r.bbox) >= minArea);
}

/**
 * Images sliced into strips or tiles (common in scans) and overlapping layers become one region,
 * so OCR sees whole words rather than halves.
 */
export function mergeRegions(regions: ImageRegion[], tolerance = 2): ImageRegion[] {
  const out = regions.map((r) => ({ ...r, bbox: { ...r.bbox } }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i].bbox,
          b = out[j].bbox;
        const grown = { x: a.x - tolerance, y: a.y - tolerance, w: a.w + 2 * tolerance, h: a.h + 2 * tolerance };
        if (!intersect(grown, b)) continue;
        out[i] = {
          bbox: union([a, b]),
          pixelWidth: Math.max(out[i].pixelWidth, out[j].pixelWidth),
          pixelHeight: Math.max(out[i].pixelHeight, out[j].pixelHeight),
        };
        out.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return out.sort((p, q) => p.bbox.y - q.bbox.y || p.bbox.x - q.bbox.x);
}
