/**
 * Page images: a page (or a region of it) rendered by pdf.js onto an @napi-rs/canvas canvas and
 * encoded as PNG, plus small WebP thumbnails with sharp.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { getConfig } from '../config';
import type { BBox } from './geometry';

/** A page drew more than INGEST_PAGE_MAX_OPERATORS operators: drawing stops there (pdf.ts names the page). */
export class TooManyOperators extends Error {
  constructor(readonly max: number) {
    super(`more than ${max} drawing operators`);
  }
}

export interface RenderOptions {
  /** Pixels per point; 1.5 ≈ 108 dpi for viewing, 2.5–4 for OCR. */
  scale?: number;
  /** Upper bound on width × height; the scale is lowered to fit (huge posters, A0 drawings). */
  maxPixels?: number;
}

export interface RenderedImage {
  png: Buffer;
  width: number;
  height: number;
  /** The scale actually used (pixels per point), needed to map pixels back to page coordinates. */
  scale: number;
}

export const PAGE_SCALE = 1.5;
const OCR_SCALE = 3;
const MAX_PIXELS = 24_000_000;

function fitScale(wPt: number, hPt: number, opts: RenderOptions, fallback: number): number {
  const wanted = opts.scale ?? fallback;
  const maxPixels = opts.maxPixels ?? MAX_PIXELS;
  const limit = Math.sqrt(maxPixels / Math.max(1, wPt * hPt));
  return Math.min(wanted, limit);
}

/** Pixels straight from the canvas: RGBA, opaque (white background), row-major. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  /** The scale actually used (pixels per point). */
  scale: number;
}

/** Pixels along a side of `pt` points at `scale`: what a render draws, and what a preview made from another render must match. */
const pixels = (pt: number, scale: number) => Math.max(1, Math.round(pt * scale));

async function drawRaw(page: PDFPageProxy, scale: number, offset: { x: number; y: number }, size: { w: number; h: number }): Promise<RawImage> {
  const width = pixels(size.w, scale);
  const height = pixels(size.h, scale);
  // offsetX/Y shift the page so the wanted region starts at the canvas origin.
  const viewport = page.getViewport({ scale, offsetX: -offset.x * scale, offsetY: -offset.y * scale });
  const canvas = createCanvas(width, height);
  const max = getConfig().ingestLimits.pageMaxOperators;
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
    background: 'rgb(255,255,255)',
    // pdf.js has no operator cap of its own; this sees each operator's index before it is drawn.
    operationsFilter: (i: number) => {
      if (i >= max) throw new TooManyOperators(max);
      return true;
    },
  }).promise;
  // A copy: the buffer canvas.data() returns may point into the canvas's own pixel memory, which is
  // freed with the canvas while sharp may still be reading it on another thread.
  return { data: Buffer.from(canvas.data()), width, height, scale };
}

const THUMB_WIDTH = 240;
const PNG_OPTIONS = { compressionLevel: 6, adaptiveFiltering: false } as const;

const sharpOf = (raw: RawImage) => sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } }).removeAlpha();

/**
 * PNG of a raw render, encoded by sharp on the libuv thread pool: RGB without the always-opaque
 * alpha, zlib level 6 without adaptive filtering (about the CPU of the canvas encoder, ~15 %
 * smaller files). Working from raw pixels lets the thumbnail skip decoding the PNG again.
 */
export function encodePng(raw: RawImage): Promise<Buffer> {
  return sharpOf(raw).png(PNG_OPTIONS).toBuffer();
}

/** The page image (PNG) and its WebP thumbnail from one raw render, encoded in parallel off the JS thread. */
export async function encodePageImages(raw: RawImage, thumbWidth = THUMB_WIDTH): Promise<{ png: Buffer; thumb: Buffer }> {
  const [png, thumb] = await Promise.all([encodePng(raw), encodeThumb(raw, thumbWidth)]);
  return { png, thumb };
}

const encodeThumb = (raw: RawImage, width: number) => sharpOf(raw).resize({ width, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer();

/** Pixel size of a whole-page render at `scale` (lowered to fit MAX_PIXELS, as renderPageRaw does). */
export function pageRenderSize(wPt: number, hPt: number, scale = PAGE_SCALE): { width: number; height: number; scale: number } {
  const s = fitScale(wPt, hPt, { scale }, scale);
  return { width: pixels(wPt, s), height: pixels(hPt, s), scale: s };
}

/**
 * The page preview (PNG + thumbnail) from a sharper render of the whole page (`raw`, at least
 * `size`), downscaled by sharp on the libuv pool to exactly the size renderPageRaw would have
 * drawn (pageRenderSize): a scanned page is then drawn once, for OCR, instead of a second time by
 * pdf.js on the JS thread for its preview. The thumbnail is made from the downscaled pixels, as a
 * text page's is: shrinking the 3× render a second time cost ~50 ms of CPU a scanned page against
 * ~15 ms from the preview (public typewritten scans), CPU the OCR processes share.
 */
export async function encodePageImagesDownscaled(raw: RawImage, size: { width: number; height: number }): Promise<{ png: Buffer; thumb: Buffer }> {
  const rgb = await sharpOf(raw).resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  const small = () => sharp(rgb, { raw: { width: size.width, height: size.height, channels: 3 } });
  const [png, thumb] = await Promise.all([
    small().png(PNG_OPTIONS).toBuffer(),
    small().resize({ width: THUMB_WIDTH, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer(),
  ]);
  return { png, thumb };
}

/**
 * A PAM (P7, RGB_ALPHA) of a raw render: the canvas's own pixels behind a short header, so the
 * JS thread spends a memcpy on it instead of a per-pixel loop (dropping alpha for a PPM cost
 * 0.1–0.3 s a scanned page at 3×, and more on an 8 MP figure). Leptonica reads PAM natively and
 * tesseract gives the same words and boxes as from a PPM or PNG of the same pixels.
 */
export function toPam(raw: RawImage): Buffer {
  const header = Buffer.from(`P7\nWIDTH ${raw.width}\nHEIGHT ${raw.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n`, 'latin1');
  return Buffer.concat([header, raw.data]);
}

/** Width, height and where the pixels start in a PAM written by toPam (null for anything else). */
export function pamLayout(image: Buffer): { width: number; height: number; offset: number } | null {
  const m = /^P7\nWIDTH (\d+)\nHEIGHT (\d+)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n/.exec(image.subarray(0, 100).toString('latin1'));
  return m ? { width: Number(m[1]), height: Number(m[2]), offset: m[0].length } : null;
}

async function draw(page: PDFPageProxy, scale: number, offset: { x: number; y: number }, size: { w: number; h: number }): Promise<RenderedImage> {
  const raw = await drawRaw(page, scale, offset, size);
  return { png: await encodePng(raw), width: raw.width, height: raw.height, scale: raw.scale };
}

function pageGeometry(page: PDFPageProxy, opts: RenderOptions) {
  const base = page.getViewport({ scale: 1 });
  const scale = fitScale(base.width, base.height, opts, PAGE_SCALE);
  return { scale, offset: { x: 0, y: 0 }, size: { w: base.width, h: base.height } };
}

function regionGeometry(page: PDFPageProxy, bbox: BBox, opts: RenderOptions) {
  const base = page.getViewport({ scale: 1 });
  const x = Math.max(0, bbox.x),
    y = Math.max(0, bbox.y);
  const w = Math.min(base.width, bbox.x + bbox.w) - x;
  const h = Math.min(base.height, bbox.y + bbox.h) - y;
  if (!(w > 0 && h > 0)) throw new RangeError(`region ${JSON.stringify(bbox)} lies outside the page`);
  const scale = fitScale(w, h, opts, OCR_SCALE);
  return { scale, offset: { x, y }, size: { w, h } };
}

export async function renderPdfPage(page: PDFPageProxy, opts: RenderOptions = {}): Promise<RenderedImage> {
  const g = pageGeometry(page, opts);
  return draw(page, g.scale, g.offset, g.size);
}

/** The page as raw pixels (encode with encodePageImages / encodePng). */
export async function renderPdfPageRaw(page: PDFPageProxy, opts: RenderOptions = {}): Promise<RawImage> {
  const g = pageGeometry(page, opts);
  return drawRaw(page, g.scale, g.offset, g.size);
}

/** Renders `bbox` (page coordinates, clipped to the page) at OCR resolution by default. */
export async function renderPdfRegion(page: PDFPageProxy, bbox: BBox, opts: RenderOptions = {}): Promise<RenderedImage> {
  const g = regionGeometry(page, bbox, opts);
  return draw(page, g.scale, g.offset, g.size);
}

/** renderPdfRegion as raw pixels. */
export async function renderPdfRegionRaw(page: PDFPageProxy, bbox: BBox, opts: RenderOptions = {}): Promise<RawImage> {
  const g = regionGeometry(page, bbox, opts);
  return drawRaw(page, g.scale, g.offset, g.size);
}

/** A small WebP preview for page grids (width in pixels, height follows the aspect ratio). */
export async function makeThumbnail(png: Buffer, width = 240): Promise<Buffer> {
  return sharp(png).resize({ width, withoutEnlargement: true }).flatten({ background: '#ffffff' }).webp({ quality: 72 }).toBuffer();
}
