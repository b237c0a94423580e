/**
 * Validating and opening PDFs, and per-page extraction: positioned text → lines, blocks and
 * headings (layout.ts), raster image regions (images.ts), text-layer presence (for OCR).
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import { getConfig } from '../config';
import { throwIfBombed } from './decode-guard';
import { IngestError, ingestErrors, isIngestError } from './errors';
import { type BBox, applyPoint, boxOfPoints, multiply } from './geometry';
import { type ImageRegion, findImageRegions } from './images';
import { type PageLayout, type TextSpan, buildLines, layoutPage } from './layout';
import { loadPdfjs, pdfjsAssets } from './pdfjs';
import {
  type RawImage,
  type RenderedImage,
  type RenderOptions,
  TooManyOperators,
  renderPdfPage,
  renderPdfPageRaw,
  renderPdfRegion,
  renderPdfRegionRaw,
} from './render';
import { describeNonPdf, findPdfHeader } from './sniff';
import { repairTextLayer } from '../text/text-layer';

export interface OpenPdfOptions {
  password?: string;
  /** Defaults to getConfig().upload.maxBytes; Infinity disables the check. */
  maxBytes?: number;
  /** Defaults to getConfig().upload.maxPages; Infinity disables the check. */
  maxPages?: number;
  /**
   * Visit every page at open to find a damaged page tree (default true). The upload's inspection
   * does it; the ingest, reading a file that passed it, skips the walk and its transient memory.
   */
  checkPageTree?: boolean;
}

export interface PageContent extends PageLayout {
  /** Raster images large enough to be worth OCR (page coordinates). */
  images: ImageRegion[];
  /** False when the page has no (or almost no) extractable text: it needs full-page OCR. */
  hasTextLayer: boolean;
  /** Non-whitespace characters in the text layer. */
  textChars: number;
  /** Page text in reading order, blocks separated by newlines. */
  text: string;
  /** Parts of the page pdf.js could not read (the rest was still extracted). */
  warnings: string[];
}

interface PdfInfo {
  title?: string;
  author?: string;
  subject?: string;
  producer?: string;
}

export interface PdfDoc {
  readonly numPages: number;
  /** pdf.js document fingerprint (stable per file content). */
  readonly fingerprint: string;
  readonly info: PdfInfo;
  pageSize(page: number): Promise<{ width: number; height: number }>;
  extractPage(page: number): Promise<PageContent>;
  /** Frees the document's caches; call only when no render of it is in flight. */
  cleanup(): Promise<void>;
  renderPage(page: number, opts?: RenderOptions): Promise<RenderedImage>;
  /** Renders part of a page (page coordinates), e.g. an image region at OCR resolution. */
  renderRegion(page: number, bbox: BBox, opts?: RenderOptions): Promise<RenderedImage>;
  /** renderPage / renderRegion as raw RGBA pixels, for callers that encode (or OCR) them themselves. */
  renderPageRaw(page: number, opts?: RenderOptions): Promise<RawImage>;
  renderRegionRaw(page: number, bbox: BBox, opts?: RenderOptions): Promise<RawImage>;
  close(): Promise<void>;
}

/** Below this many characters a page counts as having no text layer (stray page numbers, marks). */
const MIN_TEXT_LAYER_CHARS = 16;

/** Cheap checks before pdf.js sees the bytes: size limits and the %PDF- header. */
function validatePdfBytes(bytes: Uint8Array, opts: { maxBytes?: number } = {}): void {
  const maxBytes = opts.maxBytes ?? getConfig().upload.maxBytes;
  if (bytes.length === 0) throw ingestErrors.empty();
  if (bytes.length > maxBytes) throw ingestErrors.tooLarge(bytes.length, maxBytes);
  if (findPdfHeader(bytes) < 0) throw ingestErrors.notPdf(describeNonPdf(bytes));
}

/**
 * pdf.js keeps every page it has visited for the life of the document, on both of its sides:
 * the page proxies, each page's dictionary and resources, and the parsed objects behind them
 * (~0.2 MB a page on the generated 2,000-page manual, never freed by cleanup()). Past this many
 * pages visited, cleanup() and the open itself start over from a fresh pdf.js document, so a long
 * manual is read with bounded memory; re-opening parses the cross-reference table again (tens of
 * milliseconds), nothing page by page.
 */
const REOPEN_AFTER_PAGES = 200;

type PdfjsHandle = { doc: PDFDocumentProxy; task: { destroy(): Promise<void> } };

export async function openPdf(bytes: Uint8Array, opts: OpenPdfOptions = {}): Promise<PdfDoc> {
  validatePdfBytes(bytes, opts);
  const maxPages = opts.maxPages ?? getConfig().upload.maxPages;
  const pdfjs = await loadPdfjs();
  // Kept for re-opening (REOPEN_AFTER_PAGES); each open gets a copy of its own.
  const source = new Uint8Array(bytes);
  const load = async (): Promise<PdfjsHandle> => {
    const task = pdfjs.getDocument({
      // pdf.js refuses Node Buffers and may take ownership of the memory it gets: hand it a copy.
      data: new Uint8Array(source),
      password: opts.password,
      ...pdfjsAssets(),
      useSystemFonts: false,
      isEvalSupported: false,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
    });
    try {
      return { doc: await task.promise, task };
    } catch (err) {
      await task.destroy().catch(() => {});
      throwIfBombed(); // an object stream past its cap fails the open: say why
      throw mapOpenError(pdfjs, err, opts.password);
    }
  };
  let handle = await load();
  const reopen = async () => {
    await handle.task.destroy();
    handle = await load();
  };
  try {
    const numPages = handle.doc.numPages;
    if (numPages < 1) throw ingestErrors.corrupt('document has no pages');
    if (numPages > maxPages) throw ingestErrors.tooManyPages(numPages, maxPages);
    const meta = await handle.doc.getMetadata().catch(() => null);
    // Page dictionaries are cheap to load; touching each one now reports a truncated or damaged
    // page tree at upload time instead of halfway through ingestion. Visited pages stay in
    // pdf.js, so a long document is checked REOPEN_AFTER_PAGES at a time (all 2,000 pages of the
    // generated manual at once held ~400 MB of heap that the first pages read then sat on).
    if (opts.checkPageTree ?? true) {
      for (let n = 1; n <= numPages; n++) {
        await handle.doc.getPage(n);
        if (n % REOPEN_AFTER_PAGES === 0) await reopen();
      }
      // Reading starts from a document that holds no page.
      if (numPages > REOPEN_AFTER_PAGES && numPages % REOPEN_AFTER_PAGES !== 0) await reopen();
    }
    throwIfBombed();
    return new PdfJsDoc(handle, load, pdfjs, infoOf(meta?.info));
  } catch (err) {
    await handle.task.destroy().catch(() => {});
    throwIfBombed();
    if (err instanceof IngestError) throw err;
    throw ingestErrors.corrupt(errMessage(err), err);
  }
}

function mapOpenError(pdfjs: Awaited<ReturnType<typeof loadPdfjs>>, err: unknown, password?: string): IngestError {
  const e = err as { name?: string; code?: number; message?: string };
  if (e?.name === 'PasswordException') {
    // pdf.js says NEED_PASSWORD when none was given and INCORRECT_PASSWORD for a wrong one.
    const wrong = e.code === pdfjs.PasswordResponses.INCORRECT_PASSWORD || !!password;
    return wrong ? ingestErrors.passwordIncorrect() : ingestErrors.passwordRequired();
  }
  return ingestErrors.corrupt(errMessage(err), err);
}

const errMessage = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

function infoOf(raw: unknown): PdfInfo {
  const r = (raw ?? {}) as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return { title: s(r.Title), author: s(r.Author), subject: s(r.Subject), producer: s(r.Producer) };
}

class PdfJsDoc implements PdfDoc {
  readonly numPages: number;
  readonly fingerprint: string;
  private doc: PDFDocumentProxy;
  private task: { destroy(): Promise<void> };
  /** Pages visited since the pdf.js document was (re)opened. */
  private readonly visited = new Set<number>();

  constructor(
    handle: PdfjsHandle,
    private readonly reload: () => Promise<PdfjsHandle>,
    private readonly pdfjs: Awaited<ReturnType<typeof loadPdfjs>>,
    readonly info: PdfInfo,
  ) {
    this.doc = handle.doc;
    this.task = handle.task;
    this.numPages = handle.doc.numPages;
    this.fingerprint = handle.doc.fingerprints[0] ?? '';
  }

  private async page(n: number): Promise<PDFPageProxy> {
    if (!Number.isInteger(n) || n < 1 || n > this.numPages) throw new RangeError(`page ${n} is outside 1…${this.numPages}`);
    this.visited.add(n);
    try {
      return await this.doc.getPage(n);
    } catch (err) {
      throwIfBombed();
      throw ingestErrors.corrupt(`page ${n}: ${errMessage(err)}`, err);
    }
  }

  async pageSize(n: number) {
    const vp = (await this.page(n)).getViewport({ scale: 1 });
    return { width: vp.width, height: vp.height };
  }

  async extractPage(n: number): Promise<PageContent> {
    const page = await this.page(n);
    const warnings: string[] = [];
    try {
      const viewport = page.getViewport({ scale: 1 });
      // One damaged content stream must not sink a 500-page manual: a page whose text cannot be
      // read is treated as having no text layer (so it gets OCR), and the reason is kept.
      const text = await page.getTextContent().catch((err: unknown) => {
        warnings.push(`text layer unreadable: ${errMessage(err)}`);
        return { items: [], styles: {}, lang: null } as TextContent;
      });
      // The operator list gives the image placements and also loads the fonts, whose real names
      // ("Arial,Bold") are the only reliable bold signal. Building it decodes every image on the
      // page, so a page with (almost) no text layer goes without: it is read whole by OCR (no
      // image regions needed), and its scan is decoded once, when it is drawn for the engine.
      const opListOf = () =>
        page.getOperatorList().catch((err: unknown) => {
          warnings.push(`drawing operators unreadable: ${errMessage(err)}`);
          return { fnArray: [], argsArray: [] };
        });
      const rawChars = text.items.reduce((k, item) => k + ('str' in item ? item.str.replace(/\s/g, '').length : 0), 0);
      const opList = rawChars >= MIN_TEXT_LAYER_CHARS ? await opListOf() : null;
      // pdf.js draws what it decoded before a stream passed its cap; the job fails instead.
      throwIfBombed();
      const spans = textSpans(text, viewport.transform, (id) => fontNameOf(page, id));
      const lines = buildLines(spans, viewport.width);
      const layout = layoutPage(n, viewport.width, viewport.height, lines);
      const textChars = spans.reduce((k, s) => k + s.text.replace(/\s/g, '').length, 0);
      const ops = opList ?? (textChars >= MIN_TEXT_LAYER_CHARS ? await opListOf() : null);
      throwIfBombed();
      const maxOperators = getConfig().ingestLimits.pageMaxOperators;
      if (ops && ops.fnArray.length > maxOperators) throw ingestErrors.tooManyOperators(n, maxOperators);
      const images = ops ? findImageRegions(this.pdfjs.OPS, ops, viewport.transform, viewport) : [];
      return {
        ...layout,
        images,
        textChars,
        hasTextLayer: textChars >= MIN_TEXT_LAYER_CHARS,
        text: layout.blocks.map((b) => b.text).join('\n'),
        warnings,
      };
    } finally {
      page.cleanup();
    }
  }

  renderPage(n: number, opts?: RenderOptions) {
    return this.rendering(n, (page) => renderPdfPage(page, opts));
  }

  renderRegion(n: number, bbox: BBox, opts?: RenderOptions) {
    return this.rendering(n, (page) => renderPdfRegion(page, bbox, opts));
  }

  renderPageRaw(n: number, opts?: RenderOptions) {
    return this.rendering(n, (page) => renderPdfPageRaw(page, opts));
  }

  renderRegionRaw(n: number, bbox: BBox, opts?: RenderOptions) {
    return this.rendering(n, (page) => renderPdfRegionRaw(page, bbox, opts));
  }

  /** Any render of page n; a failure names the page. */
  private async rendering<T>(n: number, render: (page: PDFPageProxy) => Promise<T>): Promise<T> {
    const page = await this.page(n);
    try {
      const out = await render(page);
      throwIfBombed();
      return out;
    } catch (err) {
      throwIfBombed();
      if (isIngestError(err)) throw err;
      if (err instanceof TooManyOperators) throw ingestErrors.tooManyOperators(n, err.max);
      throw ingestErrors.renderFailed(n, err);
    } finally {
      // Decoded images and operator lists stay on the page object otherwise: ~0.15 MB a page,
      // 300 MB over a 2,000-page manual. pdf.js defers this while another render of it runs.
      page.cleanup();
    }
  }

  async cleanup() {
    // Fonts and page caches of the whole document (heap grows with the pages visited otherwise).
    // Only safe with no render in flight: the caller guarantees it.
    if (this.visited.size < REOPEN_AFTER_PAGES) {
      await this.doc.cleanup();
      return;
    }
    // What cleanup() keeps (every visited page, on both sides of pdf.js) goes with the old document.
    const fresh = await this.reload();
    await this.task.destroy().catch(() => {});
    this.doc = fresh.doc;
    this.task = fresh.task;
    this.visited.clear();
  }

  async close() {
    await this.task.destroy();
  }
}

const BOLD_NAME = /bold|black|heavy|semibold|demi|[-,+](bd|b)$/i;

function fontNameOf(page: PDFPageProxy, id: string): string {
  try {
    const objs = page.commonObjs as unknown as { has(id: string): boolean; get(id: string): { name?: string } };
    return objs.has(id) ? (objs.get(id)?.name ?? '') : '';
  } catch {
    return '';
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * pdf.js text items → spans with top-left page boxes. Each item's transform places its baseline
 * origin in PDF space; ascent/descent of its font give the glyph box, and the viewport transform
 * turns that into page coordinates (handling /Rotate and crop-box offsets).
 */
export function textSpans(content: TextContent, viewportTransform: readonly number[], fontName: (id: string) => string): TextSpan[] {
  const spans: TextSpan[] = [];
  const boldCache = new Map<string, boolean>();
  for (const raw of content.items) {
    const item = raw as TextItem;
    if (typeof item.str !== 'string' || item.str.trim() === '') continue;
    const [a, b, c, d, e, f] = item.transform as number[];
    const style = content.styles[item.fontName];
    const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height || 1;
    const ascent = clamp(style?.ascent || 0.8, 0.5, 1.1);
    const descent = clamp(style?.descent || -0.2, -0.5, 0);
    const ul = Math.hypot(a, b) || 1;
    const ux = a / ul,
      uy = b / ul; // baseline direction
    const vl = Math.hypot(c, d) || 1;
    const vx = c / vl,
      vy = d / vl; // glyph "up" direction
    let corners: Array<[number, number]>;
    if (style?.vertical) {
      // Vertical writing: the item runs down from its origin by `height`.
      corners = [
        [e - size / 2, f],
        [e + size / 2, f],
        [e - size / 2, f - item.height],
        [e + size / 2, f - item.height],
      ];
    } else {
      const bx = e + vx * descent * size,
        by = f + vy * descent * size;
      const tx = e + vx * ascent * size,
        ty = f + vy * ascent * size;
      const w = item.width;
      corners = [
        [bx, by],
        [bx + ux * w, by + uy * w],
        [tx, ty],
        [tx + ux * w, ty + uy * w],
      ];
    }
    const bbox = boxOfPoints(corners.map(([x, y]) => applyPoint(viewportTransform, x, y)));
    const dir = multiply([a, b, 0, 0, 0, 0], [...viewportTransform]);
    const rotated = !!style?.vertical || Math.abs(dir[1]) > 0.1 * Math.abs(dir[0]) || dir[0] < 0;
    let bold = boldCache.get(item.fontName);
    if (bold === undefined) {
      bold = BOLD_NAME.test(fontName(item.fontName));
      boldCache.set(item.fontName, bold);
    }
    const scale = Math.hypot(viewportTransform[0], viewportTransform[1]) || 1;
    spans.push({ text: repairTextLayer(item.str), bbox, fontSize: Math.round(size * scale * 100) / 100, bold, rotated });
  }
  return spans;
}
