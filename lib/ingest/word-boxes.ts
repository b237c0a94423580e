/**
 * Exact boxes of quoted values on one page, from the PDF's text layer. pdf.js places each text
 * item (a run of text, often a whole line) but not its characters; the page's drawing operators
 * carry every glyph's advance width, so a value's characters are placed inside their item glyph by
 * glyph. Done on demand for the one page a citation opens (~0.1 s), in a PDF worker process
 * (lib/pdf-worker: `locateValuesInPdf`), so nothing extra is stored at ingest and no library has
 * to be re-ingested.
 */
import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import { findValue } from '@/lib/answer/value-boxes';
import { type BBox, union, verticalOverlap } from './geometry';
import { textSpans } from './pdf';
import { loadPdfjs, pdfjsAssets } from './pdfjs';

/** A value to box, and roughly where it is (its line, or an estimate inside it). */
export interface ValueTarget {
  value: string;
  near: BBox;
}

/** One character of the text layer with its horizontal extent on the page. */
interface PlacedChar {
  ch: string;
  x0: number;
  x1: number;
  item: number;
}

/**
 * The box of each target's value on `page` (1-based) of the PDF, or null where the text layer
 * does not have it on the target's line (a scanned page, a rotated label).
 */
export async function locateValues(pdf: Uint8Array, page: number, targets: ValueTarget[], password?: string): Promise<Array<BBox | null>> {
  if (targets.length === 0) return [];
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(pdf),
    password,
    ...pdfjsAssets(),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    const doc = await task.promise;
    const p = await doc.getPage(page);
    const viewport = p.getViewport({ scale: 1 });
    const content = await p.getTextContent();
    const ops = await p.getOperatorList();
    const widths = glyphWidths(ops, pdfjs.OPS);
    const items = placeItems(content, viewport.transform, widths);
    return targets.map((t) => locate(items, t));
  } finally {
    await task.destroy();
  }
}

/** Font (pdf.js loaded name) → character → advance width, from the glyphs the page draws. */
function glyphWidths(ops: { fnArray: number[]; argsArray: unknown[] }, OPS: { setFont: number; showText: number }): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  let font = '';
  for (let i = 0; i < ops.fnArray.length; i++) {
    const args = ops.argsArray[i] as unknown[];
    if (ops.fnArray[i] === OPS.setFont) font = String(args[0]);
    else if (ops.fnArray[i] === OPS.showText) {
      let map = out.get(font);
      if (!map) out.set(font, (map = new Map()));
      // TJ arrays mix glyphs with numeric spacing adjustments.
      for (const g of args[0] as Array<{ unicode?: string; width?: number } | number>) {
        if (typeof g === 'object' && g && typeof g.unicode === 'string' && typeof g.width === 'number' && g.width > 0) map.set(g.unicode, g.width);
      }
    }
  }
  return out;
}

interface PlacedItem {
  bbox: BBox;
  text: string;
  /** Left and right edge of each UTF-16 unit of `text` (a surrogate pair shares its character's). */
  x0: number[];
  x1: number[];
}

/** Text items placed on the page, each character at its glyph's share of the item's width. */
function placeItems(content: TextContent, viewportTransform: number[], widths: Map<string, Map<string, number>>): PlacedItem[] {
  const out: PlacedItem[] = [];
  for (const raw of content.items) {
    const item = raw as TextItem;
    const [span] = textSpans({ ...content, items: [item] }, viewportTransform, () => '');
    if (!span || span.rotated) continue;
    const fontWidths = widths.get(item.fontName);
    const known = fontWidths ? [...fontWidths.values()] : [];
    const average = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
    const chars = [...item.str];
    // Spaces pdf.js inserted for gaps have no glyph: a space's own width, else half an average glyph.
    const advance = chars.map((ch) => fontWidths?.get(ch) ?? (/\s/.test(ch) ? (fontWidths?.get(' ') ?? average / 2) : average));
    const total = advance.reduce((a, b) => a + b, 0) || 1;
    const x0: number[] = [];
    const x1: number[] = [];
    let x = span.bbox.x;
    chars.forEach((ch, i) => {
      const w = (advance[i] / total) * span.bbox.w;
      for (let k = 0; k < ch.length; k++) {
        x0.push(x);
        x1.push(x + w);
      }
      x += w;
    });
    // The span's text: what the page's stored text says (repaired like it), one character for one.
    out.push({ bbox: span.bbox, text: span.text, x0, x1 });
  }
  return out;
}

/** The target's value among the items on its line, the occurrence nearest the target. */
function locate(items: PlacedItem[], target: ValueTarget): BBox | null {
  const onLine = items.filter((it) => verticalOverlap(it.bbox, target.near) >= 0.5).sort((a, b) => a.bbox.x - b.bbox.x);
  if (onLine.length === 0) return null;
  // The line's text with every character's place: items joined by a space.
  const chars: PlacedChar[] = [];
  onLine.forEach((it, index) => {
    if (index > 0) chars.push({ ch: ' ', x0: it.bbox.x, x1: it.bbox.x, item: -1 });
    for (let k = 0; k < it.text.length; k++) chars.push({ ch: it.text[k], x0: it.x0[k], x1: it.x1[k], item: index });
  });
  const text = chars.map((c) => c.ch).join('');
  const centre = target.near.x + target.near.w / 2;
  let best: BBox | null = null;
  let bestDistance = Infinity;
  for (const [start, end] of findValue(text, target.value)) {
    const own = chars.slice(start, end).filter((c) => c.item >= 0 && c.ch.trim() !== '');
    if (own.length === 0) continue;
    const x0 = Math.min(...own.map((c) => c.x0));
    const x1 = Math.max(...own.map((c) => c.x1));
    const rows = union([...new Set(own.map((c) => c.item))].map((i) => onLine[i].bbox));
    const distance = Math.abs((x0 + x1) / 2 - centre);
    if (distance < bestDistance) {
      best = { x: x0, y: rows.y, w: x1 - x0, h: rows.h };
      bestDistance = distance;
    }
  }
  return best;
}
