/**
 * OCR of one PDF page: decide what to recognise (the whole page when it has no text layer, else
 * only its raster image regions), render those at OCR resolution, recognise, and map the word
 * boxes back to page coordinates as TextLines flagged `ocr`, merged into the page layout.
 */
import type { BBox } from './geometry';
import { union } from './geometry';
import { type TextLine, layoutPage } from './layout';
import type { OcrEngine, OcrMode, OcrResult } from './ocr';
import type { PageContent, PdfDoc } from './pdf';

export interface OcrTarget {
  bbox: BBox;
  /** Render scale (pixels per point). */
  scale: number;
  mode: OcrMode;
}

export interface OcrPlanOptions {
  /** Scale for pages without a text layer; 3 ≈ 216 dpi. */
  pageScale?: number;
  /** Bounds for image regions, whose scale follows the image's own resolution. */
  minRegionScale?: number;
  maxRegionScale?: number;
  /** Skip image regions smaller than this share of the page (OCR cost grows with area). */
  minRegionAreaFraction?: number;
}

/** What to OCR on a page: nothing, the whole page, or its image regions. */
export function planOcr(page: Pick<PageContent, 'width' | 'height' | 'hasTextLayer' | 'images'>, opts: OcrPlanOptions = {}): OcrTarget[] {
  const pageScale = opts.pageScale ?? 3;
  if (!page.hasTextLayer) return [{ bbox: { x: 0, y: 0, w: page.width, h: page.height }, scale: pageScale, mode: 'page' }];
  const lo = opts.minRegionScale ?? 3;
  const hi = opts.maxRegionScale ?? 4;
  const minArea = (opts.minRegionAreaFraction ?? 0) * page.width * page.height;
  return page.images.filter((img) => img.bbox.w * img.bbox.h >= minArea).map((img) => {
    // Small labels need ~1.5× the image's own resolution to reach the glyph size tesseract
    // reads best (measured on the BTT pinouts: 8 pin names at 4× vs 6 at native 2.8×).
    const native = img.pixelWidth > 0 ? img.pixelWidth / img.bbox.w : hi;
    return { bbox: img.bbox, scale: Math.min(hi, Math.max(lo, native * 1.5)), mode: 'sparse' as const };
  });
}

export const DEFAULT_MIN_CONFIDENCE = 45;

export interface MapOptions {
  /** Words below this tesseract confidence (0–100) are dropped: on photos they are mostly noise. */
  minConfidence?: number;
  /** Figure labels: also fix the usual misreads in pin and voltage names (see normalizeLabel). */
  labels?: boolean;
  /** Index of the OCR region, stored on each line. */
  region?: number;
}

/**
 * Short tokens are where OCR of photos produces noise ("oo", "Ed", "n"): keep them only when
 * tesseract is sure, or when they look like a designator (HB, 5V, D+, TX).
 */
function keepWord(text: string, confidence: number, minConfidence: number): boolean {
  const core = text.replace(/[^\p{L}\p{N}+\-]/gu, '');
  if (!/[\p{L}\p{N}]/u.test(core) || confidence < minConfidence) return false;
  if (core.length >= 3) return true;
  return confidence >= 80 || (confidence >= 65 && /^[A-Z0-9+\-]{2}$/.test(core));
}

const PIN_DIGIT: Record<string, string> = { O: '0', S: '5', Z: '7', G: '6' };

/**
 * MCU pin names and voltages on board photos are misread in predictable ways: "PA5" → "PAS",
 * "PA7" → "PAZ", "PC0" → "PCO", "+5V" → "+5U". Only tokens of exactly that shape are changed
 * (a port letter A–K, then one or two digit-like characters, at least one a real digit or the
 * token being three characters long), so words like "PCB" or "PASS" stay as they are.
 */
export function normalizeLabel(token: string): string {
  const m = /^([([]?)(P[A-K])([0-9OSZG]{1,2})([)\]|:;,.]?)$/.exec(token);
  if (m && (m[3].length === 1 || /\d/.test(m[3]))) return m[1] + m[2] + m[3].replace(/[OSZG]/g, (c) => PIN_DIGIT[c]) + m[4];
  const v = /^([+]?\d{1,2}(?:[.,]\d)?)U$/.exec(token);
  if (v) return `${v[1]}V`;
  return token;
}

/**
 * Maps OCR lines from pixels of a rendered region back to page coordinates
 * (page = region origin + pixel / scale) and splits each line into cells at wide gaps so OCR'd
 * tables are recognised like text-layer tables.
 */
export function ocrLinesToPage(result: Pick<OcrResult, 'lines'>, region: BBox, scale: number, opts: MapOptions = {}): TextLine[] {
  const minConfidence = opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const fix = opts.labels ? normalizeLabel : (t: string) => t;
  const toPage = (b: BBox): BBox => ({ x: region.x + b.x / scale, y: region.y + b.y / scale, w: b.w / scale, h: b.h / scale });
  const out: TextLine[] = [];
  for (const line of result.lines) {
    const words = line.words.filter((w) => keepWord(w.text, w.confidence, minConfidence)).map((w) => ({ ...w, text: fix(w.text) }));
    if (words.length === 0) continue;
    const boxes = words.map((w) => toPage(w.bbox));
    const heights = boxes.map((b) => b.h).sort((a, b) => a - b);
    const wordHeight = heights[Math.floor(heights.length / 2)];
    const cells: Array<{ text: string; boxes: BBox[] }> = [];
    words.forEach((w, i) => {
      const b = boxes[i];
      const last = cells.at(-1);
      const prevBox = last?.boxes.at(-1);
      if (last && prevBox && b.x - (prevBox.x + prevBox.w) <= 1.5 * wordHeight) {
        last.text += ` ${w.text}`;
        last.boxes.push(b);
      } else cells.push({ text: w.text, boxes: [b] });
    });
    out.push({
      text: words.map((w) => w.text).join(' '),
      bbox: union(boxes),
      // Word boxes span ascender to descender, roughly 0.85 em.
      fontSize: Math.round((wordHeight / 0.85) * 10) / 10,
      bold: false,
      cells: cells.map((c) => ({ text: c.text, bbox: union(c.boxes) })),
      ocr: true,
      column: 0,
      ...(opts.region === undefined ? {} : { region: opts.region }),
    });
  }
  return out;
}

export interface OcrRegionLines {
  /** The OCR'd area (page coordinates). */
  bbox: BBox;
  lines: TextLine[];
}

/**
 * Adds OCR text to a page: on a page without a text layer it becomes the page's lines; otherwise
 * each region's lines go, as one group, before the first text line below the region's top, and
 * blocks, headings and text are rebuilt (OCR lines form 'figure' blocks there).
 */
export function withOcrLines(page: PageContent, regions: OcrRegionLines[]): PageContent {
  const groups = regions.filter((r) => r.lines.length > 0).sort((a, b) => a.bbox.y - b.bbox.y);
  if (groups.length === 0) return page;
  const lines = [...page.lines];
  for (const g of groups) {
    const at = lines.findIndex((l) => !l.ocr && l.bbox.y + l.bbox.h / 2 > g.bbox.y);
    lines.splice(at < 0 ? lines.length : at, 0, ...g.lines);
  }
  const layout = layoutPage(page.page, page.width, page.height, lines);
  return { ...page, ...layout, text: layout.blocks.map((b) => b.text).join('\n') };
}

export interface PageOcrResult {
  regions: Array<OcrRegionLines & { target: OcrTarget; ms: number }>;
  /** Kept words (after the confidence filter). */
  words: number;
  /** Mean confidence of kept words (0–100). */
  confidence: number;
  /** Wall time for render + recognition of all targets. */
  ms: number;
}

/** Renders and recognises the planned targets of one page (all targets go to the pool at once). */
export async function ocrPage(
  doc: PdfDoc,
  page: PageContent,
  engine: OcrEngine,
  opts: OcrPlanOptions & MapOptions & { targets?: OcrTarget[]; signal?: AbortSignal } = {},
): Promise<PageOcrResult> {
  const t0 = performance.now();
  const minConfidence = opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const targets = opts.targets ?? planOcr(page, opts);
  let words = 0;
  let confSum = 0;
  const regions = await Promise.all(
    targets.map(async (target, region) => {
      opts.signal?.throwIfAborted();
      const t = performance.now();
      const img = await doc.renderRegion(page.page, target.bbox, { scale: target.scale });
      const result = await engine.recognize(img.png, { mode: target.mode, dpi: img.scale * 72, signal: opts.signal });
      // The renderer may lower the scale for huge regions: map with the scale actually used.
      const lines = ocrLinesToPage(result, target.bbox, img.scale, { minConfidence, labels: target.mode === 'sparse', region });
      for (const w of result.words) {
        if (!keepWord(w.text, w.confidence, minConfidence)) continue;
        words++;
        confSum += w.confidence;
      }
      return { bbox: target.bbox, target, lines, ms: performance.now() - t };
    }),
  );
  return { regions, words, confidence: words ? confSum / words : 0, ms: performance.now() - t0 };
}
