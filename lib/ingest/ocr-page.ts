/**
 * OCR of one PDF page: decide what to recognise (the whole page when it has no text layer, else
 * only its raster image regions), render those at OCR resolution, recognise, and map the word
 * boxes back to page coordinates as TextLines flagged `ocr`, merged into the page layout.
 */
import { createHash } from 'node:crypto';
import type { BBox } from './geometry';
import { union } from './geometry';
import { type TextLine, layoutPage } from './layout';
import type { OcrEngine, OcrMode, OcrOptions, OcrResult } from './ocr';
import { type ManualLanguage, readInItsLanguage } from './ocr-language';
import { atReadingScale } from './ocr-scale';
import type { PageContent, PdfDoc } from './pdf';
import { type RawImage, toPam } from './render';

export interface OcrTarget {
  bbox: BBox;
  /** Render scale (pixels per point). */
  scale: number;
  mode: OcrMode;
}

export interface OcrPlanOptions {
  /** Scale pages without a text layer are drawn at; 3 ≈ 216 dpi. The highest they are read at: large print is read lower (ocr-scale.ts). */
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
  return page.images
    .filter((img) => img.bbox.w * img.bbox.h >= minArea)
    .map((img) => {
      // Small labels need ~1.5× the image's own resolution to reach the glyph size tesseract
      // reads best (measured on public board pinouts: 8 pin names at 4× vs 6 at native 2.8×).
      const native = img.pixelWidth > 0 ? img.pixelWidth / img.bbox.w : hi;
      return { bbox: img.bbox, scale: Math.min(hi, Math.max(lo, native * 1.5)), mode: 'sparse' as const };
    });
}

const DEFAULT_MIN_CONFIDENCE = 45;

/** A figure region is drawn at a lower scale beyond this many pixels (a whole A4 page at 4×: 8 MP). */
const MAX_FIGURE_PIXELS = 8_000_000;

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
  /** `language`: the model a whole-page target was finally read with (when languages are detected). */
  regions: Array<
    OcrRegionLines & {
      target: OcrTarget;
      /** Scale the region was read at: the target's, or lower for a scanned page in large print (ocr-scale.ts). */
      scale: number;
      ms: number;
      language?: string;
      /** Id of the engine whose text was kept. */
      engine: string;
    }
  >;
  /** Kept words (after the confidence filter). */
  words: number;
  /** Mean confidence of kept words (0–100). */
  confidence: number;
  /** Wall time for render + recognition of all targets. */
  ms: number;
}

export interface OcrPageOptions extends OcrPlanOptions, MapOptions {
  targets?: OcrTarget[];
  /**
   * Reads figure regions ('sparse' targets) instead of `engine` (PaddleOCR: ocr-paddle.ts). When it
   * fails on a region, that region is read by `engine` after all: labels are an extra, and a
   * missing model must not fail a manual.
   */
  figureEngine?: OcrEngine;
  signal?: AbortSignal;
  /**
   * Results by image content, shared across the pages of a manual: a figure repeated on many
   * pages (a header banner, the same board drawing) is recognised once. Same pixels, same text.
   */
  cache?: Map<string, Promise<OcrResult>>;
  /**
   * Whole-page targets: read with this manual's current language guess, then read again with the
   * model of the language the text is identified as, when that differs (ocr-language.ts).
   */
  language?: ManualLanguage;
}

/**
 * Renders and recognises the planned targets of one page, in two steps for pipelining: `rendered` settles once every target image is drawn (the
 * part that runs on this thread, and the only one that needs `doc`), with the render of the whole
 * page when one was drawn (a scanned page: its preview is made from it); `result` once the engine
 * has read them all. Each target goes to the engine as soon as it is drawn. Both promises reject
 * on failure; the caller must handle both.
 */
export function startPageOcr(
  doc: PdfDoc,
  page: PageContent,
  engine: OcrEngine,
  opts: OcrPageOptions = {},
): { rendered: Promise<RawImage | undefined>; result: Promise<PageOcrResult> } {
  const t0 = performance.now();
  const minConfidence = opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const targets = opts.targets ?? planOcr(page, opts);
  // Drawn one after the other (they share this thread anyway): the first one reaches the engine soonest.
  let previous: Promise<unknown> = Promise.resolve();
  let wholePage: RawImage | undefined;
  const images = targets.map((target) => {
    const drawn = previous.then(async () => {
      opts.signal?.throwIfAborted();
      const t = performance.now();
      // Figure regions are bounded in pixels: OCR cost grows with area (a page-size drawing at 4×).
      const raw = await doc.renderRegionRaw(page.page, target.bbox, {
        scale: target.scale,
        ...(target.mode === 'sparse' ? { maxPixels: MAX_FIGURE_PIXELS } : {}),
      });
      // Figure regions of text pages: what the text layer already says there is not read again.
      if (target.mode === 'sparse') maskBoxes(raw, target.bbox, textLayerBoxes(page));
      else if (target.mode === 'page') wholePage = raw;
      return { raw, t };
    });
    previous = drawn.catch(() => {});
    return drawn;
  });
  const rendered = Promise.all(images).then(() => wholePage);
  const result = Promise.all(
    images.map(async (drawn, region) => {
      const { raw: drawnRaw, t } = await drawn;
      const target = targets[region];
      // A scanned page whose letters are larger than tesseract needs is read from a smaller copy
      // (ocr-scale.ts); the full render stays the page's preview source.
      const raw = target.mode === 'page' ? await atReadingScale(drawnRaw) : drawnRaw;
      const { scale } = raw;
      const image = toPam(raw);
      const base = { mode: target.mode, dpi: scale * 72, signal: opts.signal };
      const lang = target.mode === 'page' && opts.language?.active ? opts.language : undefined;
      let language: string | undefined;
      let ocr: OcrResult;
      let readBy = engine.id;
      if (lang) {
        const detectScript = engine.detectScript ? () => engine.detectScript!(image, base) : undefined;
        ({ result: ocr, language } = await readInItsLanguage(
          (l) => recognizeCached(engine, image, { ...base, languages: [l] }, opts.cache),
          detectScript,
          lang,
        ));
      } else if (target.mode === 'sparse' && opts.figureEngine) {
        const figures = opts.figureEngine;
        readBy = figures.id;
        ocr = await recognizeCached(figures, image, base, opts.cache).catch((err: unknown) => {
          if (opts.signal?.aborted) throw err;
          warnFigureEngineOnce(figures, err);
          readBy = engine.id;
          return recognizeCached(engine, image, base, opts.cache);
        });
      } else ocr = await recognizeCached(engine, image, base, opts.cache);
      const lines = ocrLinesToPage(ocr, target.bbox, scale, { minConfidence, labels: target.mode === 'sparse', region });
      return { bbox: target.bbox, target, scale, lines, ms: performance.now() - t, words: ocr.words, engine: readBy, ...(lang ? { language } : {}) };
    }),
  ).then((done) => {
    let words = 0;
    let confSum = 0;
    for (const r of done) {
      for (const w of r.words) {
        if (!keepWord(w.text, w.confidence, minConfidence)) continue;
        words++;
        confSum += w.confidence;
      }
    }
    const regions = done.map(({ words: _words, ...r }) => r);
    return { regions, words, confidence: words ? confSum / words : 0, ms: performance.now() - t0 };
  });
  return { rendered, result };
}

const warnedEngines = new WeakSet<OcrEngine>();
function warnFigureEngineOnce(engine: OcrEngine, err: unknown): void {
  if (warnedEngines.has(engine)) return;
  warnedEngines.add(engine);
  console.warn(
    `[ocr] ${engine.id} failed on a figure region, reading figures with the page engine instead: ${err instanceof Error ? err.message : String(err)}`,
  );
}

/** Cell boxes of the page's text-layer lines (cells, not whole lines: a line may span a figure). */
function textLayerBoxes(page: Pick<PageContent, 'lines'>): BBox[] {
  return page.lines.filter((l) => !l.ocr).flatMap((l) => (l.cells.length ? l.cells.map((c) => c.bbox) : [l.bbox]));
}

/**
 * Paints `boxes` (page coordinates) white in a raw render of `region`: text the PDF's text layer
 * already has (labels drawn as vector text over a figure, the invisible text of a searchable scan,
 * captions inside a merged figure region) is then neither recognised twice nor paid for twice.
 * Returns how many pixels were painted.
 */
function maskBoxes(raw: RawImage, region: BBox, boxes: readonly BBox[], padPx = 1): number {
  let painted = 0;
  for (const b of boxes) {
    const x0 = Math.max(0, Math.floor((b.x - region.x) * raw.scale) - padPx);
    const y0 = Math.max(0, Math.floor((b.y - region.y) * raw.scale) - padPx);
    const x1 = Math.min(raw.width, Math.ceil((b.x + b.w - region.x) * raw.scale) + padPx);
    const y1 = Math.min(raw.height, Math.ceil((b.y + b.h - region.y) * raw.scale) + padPx);
    if (x1 <= x0 || y1 <= y0) continue;
    for (let y = y0; y < y1; y++) raw.data.fill(255, (y * raw.width + x0) * 4, (y * raw.width + x1) * 4);
    painted += (x1 - x0) * (y1 - y0);
  }
  return painted;
}

function recognizeCached(engine: OcrEngine, image: Buffer, opts: OcrOptions, cache?: Map<string, Promise<OcrResult>>): Promise<OcrResult> {
  // A whole scanned page is not repeated pixel for pixel: hashing its ~17 MB would only cost the JS thread.
  if (!cache || opts.mode === 'page') return engine.recognize(image, opts);
  const key = `${engine.id}|${opts.mode}|${Math.round(opts.dpi ?? 0)}|${(opts.languages ?? []).join('+')}|${createHash('sha1').update(image).digest('hex')}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = engine.recognize(image, opts);
    cache.set(key, hit);
    // A failed recognition is not remembered.
    hit.catch(() => cache.delete(key));
  }
  return hit;
}
