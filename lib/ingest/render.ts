/**
 * Page images: a page (or a region of it) rendered by pdf.js onto an @napi-rs/canvas canvas and
 * encoded as PNG, plus small WebP thumbnails with sharp.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import type { BBox } from './geometry';

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
export const OCR_SCALE = 3;
const MAX_PIXELS = 24_000_000;

function fitScale(wPt: number, hPt: number, opts: RenderOptions, fallback: number): number {
  const wanted = opts.scale ?? fallback;
  const maxPixels = opts.maxPixels ?? MAX_PIXELS;
  const limit = Math.sqrt(maxPixels / Math.max(1, wPt * hPt));
  return Math.min(wanted, limit);
}

async function draw(page: PDFPageProxy, scale: number, offset: { x: number; y: number }, size: { w: number; h: number }): Promise<RenderedImage> {
  const width = Math.max(1, Math.round(size.w * scale));
  const height = Math.max(1, Math.round(size.h * scale));
  // offsetX/Y shift the page so the wanted region starts at the canvas origin.
  const viewport = page.getViewport({ scale, offsetX: -offset.x * scale, offsetY: -offset.y * scale });
  const canvas = createCanvas(width, height);
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
    background: 'rgb(255,255,255)',
  }).promise;
  const png = await canvas.encode('png');
  return { png, width, height, scale };
}

export async function renderPdfPage(page: PDFPageProxy, opts: RenderOptions = {}): Promise<RenderedImage> {
  const base = page.getViewport({ scale: 1 });
  const scale = fitScale(base.width, base.height, opts, PAGE_SCALE);
  return draw(page, scale, { x: 0, y: 0 }, { w: base.width, h: base.height });
}

/** Renders `bbox` (page coordinates, clipped to the page) at OCR resolution by default. */
export async function renderPdfRegion(page: PDFPageProxy, bbox: BBox, opts: RenderOptions = {}): Promise<RenderedImage> {
  const base = page.getViewport({ scale: 1 });
  const x = Math.max(0, bbox.x), y = Math.max(0, bbox.y);
  const w = Math.min(base.width, bbox.x + bbox.w) - x;
  const h = Math.min(base.height, bbox.y + bbox.h) - y;
  if (!(w > 0 && h > 0)) throw new RangeError(`region ${JSON.stringify(bbox)} lies outside the page`);
  const scale = fitScale(w, h, opts, OCR_SCALE);
  return draw(page, scale, { x, y }, { w, h });
}

/** A small WebP preview for page grids (width in pixels, height follows the aspect ratio). */
export async function makeThumbnail(png: Buffer, width = 240): Promise<Buffer> {
  return sharp(png).resize({ width, withoutEnlargement: true }).flatten({ background: '#ffffff' }).webp({ quality: 72 }).toBuffer();
}

/**
 * Share of pixels that are not (near) white, 0…1. A blank render (the pdfjs 6 + Node 20 failure
 * mode, missing fonts) gives ~0, so callers and tests can tell a real page image from an empty one.
 */
export async function inkFraction(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  let ink = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] < 200) ink++;
  return ink / (info.width * info.height);
}
