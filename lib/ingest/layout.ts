/**
 * Page layout from positioned text: spans → fragments → columns → lines → blocks (heading,
 * paragraph, table, figure). Pure functions over page coordinates (points, origin top-left), so
 * pdf.js text and OCR words go through the same code and the rules are unit-testable.
 */
import { type BBox, union, verticalOverlap } from './geometry';

/** One positioned run of text as pdf.js (or OCR) reports it. */
export interface TextSpan {
  text: string;
  bbox: BBox;
  fontSize: number;
  bold: boolean;
  /** Baseline not horizontal (rotated labels): never merged with neighbours. */
  rotated?: boolean;
}

/** A run of text on one line separated from its neighbours by a wide gap (a table cell, a column). */
interface TextCell {
  text: string;
  bbox: BBox;
}

export interface TextLine {
  text: string;
  bbox: BBox;
  fontSize: number;
  bold: boolean;
  cells: TextCell[];
  /** Text came from OCR, not from the PDF's text layer. */
  ocr: boolean;
  /** 0 = full width; 1, 2 = left/right column of a two-column zone. */
  column: number;
  /** Repeated page header/footer or page number (set by RunningLines). */
  running?: boolean;
  /** OCR lines: index of the image region they were read from (one figure block per region). */
  region?: number;
}

export type BlockKind = 'heading' | 'paragraph' | 'table' | 'figure';

export interface TextBlock {
  kind: BlockKind;
  text: string;
  bbox: BBox;
  lines: TextLine[];
  fontSize: number;
  ocr: boolean;
  /** Headings only: 1 = the largest heading style on this page. */
  level?: number;
}

interface Heading {
  text: string;
  bbox: BBox;
  fontSize: number;
  bold: boolean;
  level: number;
}

export interface PageLayout {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  /** Lines in reading order. */
  lines: TextLine[];
  blocks: TextBlock[];
  headings: Heading[];
  /** The font size most characters on the page use (0 when the page has no text). */
  bodyFontSize: number;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const right = (b: BBox) => b.x + b.w;
const bottom = (b: BBox) => b.y + b.h;
const centerY = (b: BBox) => b.y + b.h / 2;

// ---------------------------------------------------------------------------------------------
// Spans → fragments

interface Fragment {
  text: string;
  bbox: BBox;
  fontSize: number;
  boldChars: number;
  chars: number;
  rotated: boolean;
  last: BBox;
}

/** Some PDFs fake bold by drawing the same text twice, slightly offset; keep one copy. */
export function dedupeSpans(spans: TextSpan[]): TextSpan[] {
  const out: TextSpan[] = [];
  const seen = new Map<string, BBox[]>();
  for (const s of spans) {
    const prior = seen.get(s.text);
    const dup = prior?.some((b) => Math.abs(b.x - s.bbox.x) < 1.5 && Math.abs(b.y - s.bbox.y) < 1.5 && Math.abs(b.w - s.bbox.w) < 2);
    if (dup) continue;
    if (prior) prior.push(s.bbox);
    else seen.set(s.text, [s.bbox]);
    out.push(s);
  }
  return out;
}

/**
 * Joins spans that sit on one baseline with at most ~1 em between them: words of one line in one
 * column. Wider gaps start a new fragment, which keeps table cells and columns apart.
 */
function buildFragments(spans: TextSpan[]): Fragment[] {
  const sorted = [...spans].sort((a, b) => a.bbox.x - b.bbox.x || a.bbox.y - b.bbox.y);
  const frags: Fragment[] = [];
  // Fragments indexed by the vertical centre of their first span, so a span is only compared
  // with fragments near its own height on the page (dense drawings have 10k+ spans).
  const BUCKET = 6;
  const buckets = new Map<number, Fragment[]>();
  let maxH = 0;
  for (const s of sorted) {
    const chars = s.text.replace(/\s/g, '').length;
    maxH = Math.max(maxH, s.bbox.h);
    let best: Fragment | undefined;
    let bestGap = Infinity;
    if (!s.rotated) {
      const key = Math.round(centerY(s.bbox) / BUCKET);
      const reach = Math.ceil(maxH / BUCKET) + 1;
      for (let k = key - reach; k <= key + reach; k++) {
        for (const f of buckets.get(k) ?? []) {
          const gap = s.bbox.x - right(f.last);
          if (gap < -0.3 * Math.min(f.fontSize, s.fontSize) || gap > 1.0 * Math.max(f.fontSize, s.fontSize)) continue;
          if (verticalOverlap(f.last, s.bbox) < 0.6) continue;
          if (Math.abs(gap) < bestGap) {
            best = f;
            bestGap = Math.abs(gap);
          }
        }
      }
    }
    if (best) {
      const gap = s.bbox.x - right(best.last);
      const needsSpace = gap > 0.12 * Math.min(best.fontSize, s.fontSize) && !/\s$/.test(best.text) && !/^\s/.test(s.text);
      best.text += (needsSpace ? ' ' : '') + s.text;
      best.bbox = union([best.bbox, s.bbox]);
      best.last = s.bbox;
      // The fragment's size is its dominant run's size (a superscript must not shrink a line).
      if (chars > best.chars) best.fontSize = s.fontSize;
      best.chars += chars;
      if (s.bold) best.boldChars += chars;
    } else {
      const f: Fragment = {
        text: s.text,
        bbox: s.bbox,
        fontSize: s.fontSize,
        chars,
        boldChars: s.bold ? chars : 0,
        rotated: !!s.rotated,
        last: s.bbox,
      };
      frags.push(f);
      if (!f.rotated) {
        const key = Math.round(centerY(s.bbox) / BUCKET);
        const list = buckets.get(key);
        if (list) list.push(f);
        else buckets.set(key, [f]);
      }
    }
  }
  for (const f of frags) f.text = f.text.replace(/\s+/g, ' ').trim();
  return frags.filter((f) => f.text.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Fragments → columns → lines

/** Fragments with vertically overlapping extents form one line, cells ordered left to right. */
function groupRows(frags: Fragment[], column: number): TextLine[] {
  const sorted = [...frags].sort((a, b) => centerY(a.bbox) - centerY(b.bbox) || a.bbox.x - b.bbox.x);
  const rows: Array<{ box: BBox; frags: Fragment[] }> = [];
  for (const f of sorted) {
    const cy = centerY(f.bbox);
    let target: (typeof rows)[number] | undefined;
    // Only recent rows can match because fragments arrive sorted by vertical centre.
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 4; i--) {
      const r = rows[i];
      if (cy >= r.box.y && cy <= bottom(r.box) && verticalOverlap(r.box, f.bbox) >= 0.5) {
        target = r;
        break;
      }
    }
    if (target) {
      target.frags.push(f);
      target.box = union([target.box, f.bbox]);
    } else rows.push({ box: f.bbox, frags: [f] });
  }
  return rows.map((r) => lineOf(r.frags, column));
}

/** A list marker set apart from its text by a tab stop: part of the text, not a table cell. */
const MARKER = /^([•·▪●◦■□➢►✓✔\-–*]|\(?\d{1,2}[.)]|\(?[a-zA-Z][.)])$/;

function lineOf(frags: Fragment[], column: number): TextLine {
  const cells = [...frags].sort((a, b) => a.bbox.x - b.bbox.x);
  if (cells.length >= 2 && MARKER.test(cells[0].text)) {
    const [m, first] = cells.splice(0, 2);
    cells.unshift({
      ...first,
      text: `${m.text} ${first.text}`,
      bbox: union([m.bbox, first.bbox]),
      chars: m.chars + first.chars,
      boldChars: m.boldChars + first.boldChars,
    });
  }
  const chars = cells.reduce((n, c) => n + c.chars, 0);
  const bold = cells.reduce((n, c) => n + c.boldChars, 0);
  // Dominant size by characters, so one large glyph does not make a line a heading.
  const sizeChars = new Map<number, number>();
  for (const c of cells) sizeChars.set(c.fontSize, (sizeChars.get(c.fontSize) ?? 0) + c.chars);
  const fontSize = [...sizeChars.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return {
    text: cells.map((c) => c.text).join(' '),
    bbox: union(cells.map((c) => c.bbox)),
    fontSize,
    bold: chars > 0 && bold / chars >= 0.8,
    cells: cells.map((c) => ({ text: c.text, bbox: c.bbox })),
    ocr: false,
    column,
  };
}

type Region = { kind: 'single'; frags: Fragment[] } | { kind: 'columns'; left: Fragment[]; right: Fragment[] };

/**
 * Finds a vertical gutter (an x that few fragments cross) and the stretches of the page where
 * prose runs in two columns on either side of it. Tables also have gutters, but their cells are
 * short, so a zone only counts as two columns when both sides hold wide, prose-like lines.
 */
function splitColumns(frags: Fragment[], pageWidth: number): Region[] {
  const single: Region[] = [{ kind: 'single', frags }];
  const flat = frags.filter((f) => !f.rotated);
  if (flat.length < 6 || pageWidth <= 0) return single;
  const fs = median(flat.map((f) => f.fontSize)) || 10;

  const crossesAt = (f: Fragment, x: number) => f.bbox.x + 1 < x && right(f.bbox) - 1 > x;
  let bestX = -1;
  let bestCross = Infinity;
  let runStart = -1;
  let bestRun = 0;
  for (let x = Math.round(pageWidth * 0.25); x <= pageWidth * 0.75; x += 2) {
    const cross = flat.reduce((n, f) => n + (crossesAt(f, x) ? 1 : 0), 0);
    if (cross < bestCross) {
      bestCross = cross;
      runStart = x;
      bestRun = 0;
      bestX = x;
    } else if (cross === bestCross && x - runStart === bestRun + 2) {
      // Extend the run of equally good positions and aim for the middle of the gutter.
      bestRun = x - runStart;
      bestX = runStart + bestRun / 2;
    }
  }
  if (bestX < 0 || bestCross > flat.length * 0.5) return single;
  const gx = bestX;

  // Crossing fragments are barriers; the stretches between them are candidate zones.
  const bands: Array<[number, number]> = [];
  for (const f of flat.filter((f) => crossesAt(f, gx)).sort((a, b) => a.bbox.y - b.bbox.y)) {
    const last = bands.at(-1);
    if (last && f.bbox.y <= last[1]) last[1] = Math.max(last[1], bottom(f.bbox));
    else bands.push([f.bbox.y, bottom(f.bbox)]);
  }
  // slot 2k = the gap before band k, slot 2k+1 = band k itself
  const slots: Fragment[][] = Array.from({ length: bands.length * 2 + 1 }, () => []);
  for (const f of frags) {
    const cy = centerY(f.bbox);
    let slot = bands.length * 2;
    for (let k = 0; k < bands.length; k++) {
      if (cy < bands[k][0]) {
        slot = 2 * k;
        break;
      }
      if (cy <= bands[k][1]) {
        slot = 2 * k + 1;
        break;
      }
    }
    slots[slot].push(f);
  }

  const regions: Region[] = [];
  const pushSingle = (fr: Fragment[]) => {
    if (fr.length === 0) return;
    const prev = regions.at(-1);
    if (prev?.kind === 'single') prev.frags.push(...fr);
    else regions.push({ kind: 'single', frags: [...fr] });
  };
  slots.forEach((fr, i) => {
    if (i % 2 === 1) return pushSingle(fr);
    const left = fr.filter((f) => right(f.bbox) <= gx);
    const rightSide = fr.filter((f) => f.bbox.x >= gx);
    const proseLike = (side: Fragment[]) =>
      side.length >= 3 &&
      median(side.map((f) => f.bbox.w)) >= pageWidth * 0.2 &&
      bottom(union(side.map((f) => f.bbox))) - union(side.map((f) => f.bbox)).y >= 3 * fs;
    const gutter = rightSide.length && left.length ? Math.min(...rightSide.map((f) => f.bbox.x)) - Math.max(...left.map((f) => right(f.bbox))) : 0;
    if (proseLike(left) && proseLike(rightSide) && gutter >= 0.6 * fs && left.length + rightSide.length === fr.length) {
      regions.push({ kind: 'columns', left, right: rightSide });
    } else pushSingle(fr);
  });
  return regions;
}

/** Positioned spans → lines in reading order (two-column zones read left column first). */
export function buildLines(spans: TextSpan[], pageWidth: number): TextLine[] {
  const frags = buildFragments(dedupeSpans(spans.filter((s) => s.text.trim().length > 0)));
  const lines: TextLine[] = [];
  for (const region of splitColumns(frags, pageWidth)) {
    if (region.kind === 'single') lines.push(...groupRows(region.frags, 0));
    else lines.push(...groupRows(region.left, 1), ...groupRows(region.right, 2));
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Lines → blocks

/** The font size that most characters use (rounded to 0.5 pt). */
function bodyFontSize(lines: TextLine[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    if (l.running || l.ocr) continue;
    const k = Math.round(l.fontSize * 2) / 2;
    weight.set(k, (weight.get(k) ?? 0) + l.text.replace(/\s/g, '').length);
  }
  let best = 0;
  let bestW = -1;
  for (const [k, w] of weight) if (w > bestW || (w === bestW && k < best)) [best, bestW] = [k, w];
  return best;
}

const PAGE_NUMBER = /^(page\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?(\s*(of|\/)\s*\d{1,4})?$/i;
const LIST_START = /^([•·▪●◦■□➢►\-–*]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s/;

interface HeadingContext {
  bodySize: number;
  /** Most body text is bold (some PDFs use a bold face throughout): bold then says nothing. */
  bodyBold?: boolean;
  /** Neighbouring lines in reading order, for the "stands on its own" test of numbered titles. */
  prev?: TextLine;
  next?: TextLine;
  /** Vertical gap above which two lines belong to different paragraphs. */
  paragraphGap?: number;
}

/** "2. Title", "2.1 Title", "IV. Title", "Ⅲ.Title" — but not "1Work" (a footnote marker). */
const NUMBERED_TITLE = /^(\d{1,2}(\.\d{1,2})*(\.\s*|\s+)|[IVX]{1,4}\.\s*|[\u2160-\u216b]\s*[.．]?\s*)\p{L}/u;

function isHeadingLine(line: TextLine, ctx: HeadingContext): boolean {
  const text = line.text.trim();
  if (line.ocr || line.running) return false;
  if (text.length < 2 || text.length > 100 || !/\p{L}/u.test(text) || PAGE_NUMBER.test(text)) return false;
  const words = text.split(/\s+/).length;
  if (words > 14) return false;
  const ratio = ctx.bodySize > 0 ? line.fontSize / ctx.bodySize : 1;
  if (ratio >= 1.15) return true;
  if (ratio < 0.8 || words > 10 || /[.,;]$/.test(text)) return false;
  // Bold body-sized lines are run-in headings ("Telemetry Port"), unless everything is bold.
  if (line.bold && !ctx.bodyBold) return true;
  // "2. Motherboard Wiring Diagram" in the body font: a title only if it stands on its own.
  if (NUMBERED_TITLE.test(text)) {
    const gap = ctx.paragraphGap ?? 0.8 * line.fontSize;
    const apart = (a: TextLine | undefined, b: TextLine | undefined) =>
      !a || !b || a.column !== b.column || b.bbox.y - bottom(a.bbox) > gap || Math.abs(a.fontSize - b.fontSize) > 0.15 * line.fontSize;
    return apart(ctx.prev, line) && apart(line, ctx.next);
  }
  return false;
}

/** True if at least half of the body-sized characters are set in a bold face. */
function isBodyBold(lines: TextLine[], bodySize: number): boolean {
  let bold = 0,
    all = 0;
  for (const l of lines) {
    if (l.ocr || l.running || Math.abs(l.fontSize - bodySize) > 0.5) continue;
    const n = l.text.replace(/\s/g, '').length;
    all += n;
    if (l.bold) bold += n;
  }
  return all > 0 && bold / all >= 0.5;
}

const isTabular = (l: TextLine) => l.cells.length >= 2;

/** True if at least two cells of `row` line up (left, right or centre) with cells of another row. */
function alignedWithOthers(row: TextLine, rows: TextLine[]): boolean {
  let hits = 0;
  for (const c of row.cells) {
    const ok = rows.some(
      (o) =>
        o !== row &&
        o.cells.some(
          (d) =>
            Math.abs(d.bbox.x - c.bbox.x) <= 3 ||
            Math.abs(right(d.bbox) - right(c.bbox)) <= 3 ||
            Math.abs(d.bbox.x + d.bbox.w / 2 - (c.bbox.x + c.bbox.w / 2)) <= 3,
        ),
    );
    if (ok) hits++;
  }
  return hits >= 2;
}

/**
 * Runs of lines that form a table: rows with two or more cells whose columns line up, plus the
 * single-cell lines between them that continue a wrapped cell. Returns [start, end) index pairs.
 */
function findTables(lines: TextLine[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = 0;
  while (i < lines.length) {
    if (!isTabular(lines[i]) || lines[i].running) {
      i++;
      continue;
    }
    let j = i + 1;
    let lastRow = i;
    while (j < lines.length) {
      const prev = lines[j - 1];
      const cur = lines[j];
      const fs = Math.max(prev.fontSize, cur.fontSize);
      const gap = cur.bbox.y - bottom(prev.bbox);
      if (cur.column !== prev.column || cur.ocr !== prev.ocr || cur.running || gap > 2 * fs || gap < -fs) break;
      if (isTabular(cur)) {
        lastRow = j;
        j++;
        continue;
      }
      // A single-cell line starting under a non-first column of the last row wraps that cell.
      const row = lines[lastRow];
      const continues = row.cells.slice(1).some((c) => Math.abs(c.bbox.x - cur.bbox.x) <= 3);
      const nextIsRow =
        j + 1 < lines.length && isTabular(lines[j + 1]) && lines[j + 1].column === cur.column && lines[j + 1].bbox.y - bottom(cur.bbox) <= 2 * fs;
      if (!continues && !nextIsRow) break;
      j++;
    }
    const end = lastRow + 1 < j && lines.slice(lastRow + 1, j).every((l) => !isTabular(l)) ? trailingContinuations(lines, lastRow, j) : j;
    const rows = lines.slice(i, end).filter(isTabular);
    const aligned = rows.filter((r) => alignedWithOthers(r, rows)).length;
    const shortCells = median(rows.map((r) => r.cells.length)) >= 3 && median(rows.flatMap((r) => r.cells.map((c) => c.text.length))) <= 20;
    if (rows.length >= 2 && (aligned >= Math.max(2, Math.ceil(rows.length * 0.6)) || shortCells)) {
      out.push([i, end]);
      i = end;
    } else i++;
  }
  return out;
}

/** After the last row keep only the lines that continue one of its non-first cells. */
function trailingContinuations(lines: TextLine[], lastRow: number, j: number): number {
  let end = lastRow + 1;
  const row = lines[lastRow];
  while (end < j && row.cells.slice(1).some((c) => Math.abs(c.bbox.x - lines[end].bbox.x) <= 3)) end++;
  return end;
}

/** Joins wrapped lines of a paragraph, undoing end-of-line hyphenation ("con- tinued"). */
export function joinParagraph(lines: string[]): string {
  let out = '';
  for (const raw of lines) {
    const t = raw.trim();
    if (!t) continue;
    if (!out) out = t;
    else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(t)) out = out.slice(0, -1) + t;
    else out += ' ' + t;
  }
  return out;
}

export function blockText(kind: BlockKind, lines: TextLine[]): string {
  if (kind === 'table') return lines.map((l) => (l.cells.length > 1 ? l.cells.map((c) => c.text).join(' | ') : l.text)).join('\n');
  if (kind === 'figure') return lines.map((l) => l.text).join('\n');
  return joinParagraph(lines.map((l) => l.text));
}

function makeBlock(kind: BlockKind, lines: TextLine[]): TextBlock {
  return {
    kind,
    text: blockText(kind, lines),
    bbox: union(lines.map((l) => l.bbox)),
    lines,
    fontSize: median(lines.map((l) => l.fontSize)),
    ocr: lines.some((l) => l.ocr),
  };
}

/** The usual gap between consecutive lines of running text on this page (for paragraph breaks). */
function typicalLineGap(lines: TextLine[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1],
      b = lines[i];
    if (a.column !== b.column || Math.abs(a.fontSize - b.fontSize) > 0.5) continue;
    const gap = b.bbox.y - bottom(a.bbox);
    if (gap >= -0.2 * a.fontSize && gap <= 2 * a.fontSize) gaps.push(gap);
  }
  return gaps.length ? Math.max(0, median(gaps)) : NaN;
}

/** Groups lines (reading order) into heading, table, figure and paragraph blocks. */
export function buildBlocks(lines: TextLine[], bodySize = bodyFontSize(lines)): TextBlock[] {
  const usable = lines.filter((l) => !l.running);
  const hasTextLayer = usable.some((l) => !l.ocr);
  // OCR text on a page that has a text layer comes from figures: labels in no reading order,
  // kept as one 'figure' block per image region.
  const isFigure = (l: TextLine) => hasTextLayer && l.ocr;
  const tableAt = new Map(findTables(usable).filter(([s]) => !isFigure(usable[s])));
  // Spacing and neighbours are those of the text flow: figure labels sit anywhere, at any gap.
  const typical = typicalLineGap(usable.filter((l) => !isFigure(l)));
  const flowLine = (j: number, step: 1 | -1): TextLine | undefined => {
    while (j >= 0 && j < usable.length && isFigure(usable[j])) j += step;
    return usable[j];
  };
  const paragraphGapFor = (fs: number) => (Number.isFinite(typical) ? 1.5 * typical + 0.3 * fs : 0.8 * fs);
  const bodyBold = isBodyBold(usable, bodySize);
  const blocks: TextBlock[] = [];
  let para: TextLine[] = [];
  const flush = () => {
    if (para.length) blocks.push(makeBlock(isFigure(para[0]) ? 'figure' : 'paragraph', para));
    para = [];
  };

  const mayBeHeading = (l: TextLine) =>
    !l.ocr && bodySize > 0 && (l.fontSize >= 1.15 * bodySize || (l.bold && !bodyBold) || NUMBERED_TITLE.test(l.text.trim()));
  const sameStyle = (a: TextLine, b: TextLine) => Math.abs(a.fontSize - b.fontSize) < 0.5 && a.bold === b.bold;
  const continuesRun = (a: TextLine, b: TextLine) => {
    const gap = b.bbox.y - bottom(a.bbox);
    return (
      sameStyle(a, b) &&
      a.column === b.column &&
      !b.ocr &&
      !NUMBERED_TITLE.test(b.text.trim()) &&
      gap >= -0.2 * b.fontSize &&
      gap <= Math.max(0.8 * b.fontSize, paragraphGapFor(b.fontSize))
    );
  };
  const addText = (line: TextLine) => {
    const prev = para.at(-1);
    if (prev && (isFigure(prev) || isFigure(line))) {
      if (prev.ocr !== line.ocr || prev.region !== line.region) flush();
    } else if (prev) {
      const fs = Math.max(prev.fontSize, line.fontSize);
      const gap = line.bbox.y - bottom(prev.bbox);
      const limit = paragraphGapFor(fs);
      const breaks =
        prev.column !== line.column ||
        prev.ocr !== line.ocr ||
        Math.abs(prev.fontSize - line.fontSize) > 0.15 * fs ||
        gap > limit ||
        gap < -0.5 * fs ||
        LIST_START.test(line.text);
      if (breaks) flush();
    }
    para.push(line);
  };

  for (let i = 0; i < usable.length; i++) {
    const line = usable[i];
    const tableEnd = tableAt.get(i);
    if (tableEnd !== undefined) {
      flush();
      blocks.push(makeBlock('table', usable.slice(i, tableEnd)));
      i = tableEnd - 1;
      continue;
    }
    if (mayBeHeading(line)) {
      // Consecutive lines in the same heading-like style are judged together: a title wrapped
      // over two lines is one heading, a bold paragraph of five lines is none.
      let k = i + 1;
      while (k < usable.length && k - i < 4 && !tableAt.has(k) && continuesRun(usable[k - 1], usable[k])) k++;
      const run = usable.slice(i, k);
      const joined: TextLine = { ...line, text: run.map((l) => l.text).join(' '), bbox: union(run.map((l) => l.bbox)) };
      const ctx = { bodySize, bodyBold, prev: flowLine(i - 1, -1), next: flowLine(k, 1), paragraphGap: paragraphGapFor(line.fontSize) };
      if (run.length <= 3 && isHeadingLine(joined, ctx)) {
        flush();
        blocks.push(makeBlock('heading', run));
      } else run.forEach(addText);
      i = k - 1;
      continue;
    }
    addText(line);
  }
  flush();

  // Heading levels within the page: larger first, bold before regular at the same size.
  const styles = [...new Set(blocks.filter((b) => b.kind === 'heading').map((b) => styleKey(b.lines[0])))].sort((a, b) => b - a);
  for (const b of blocks) if (b.kind === 'heading') b.level = styles.indexOf(styleKey(b.lines[0])) + 1;
  return blocks;
}

const styleKey = (l: TextLine) => Math.round(l.fontSize * 2) / 2 + (l.bold ? 0.25 : 0);

function headingsOf(blocks: TextBlock[]): Heading[] {
  return blocks
    .filter((b) => b.kind === 'heading')
    .map((b) => ({ text: b.text, bbox: b.bbox, fontSize: b.lines[0].fontSize, bold: b.lines[0].bold, level: b.level ?? 1 }));
}

/** Complete layout of one page from its spans (text layer) and any extra (OCR) lines. */
export function layoutPage(page: number, width: number, height: number, lines: TextLine[]): PageLayout {
  const bodySize = bodyFontSize(lines);
  const blocks = buildBlocks(lines, bodySize);
  return { page, width, height, lines, blocks, headings: headingsOf(blocks), bodyFontSize: bodySize };
}

// ---------------------------------------------------------------------------------------------
// Document-level: running headers and footers

const MARGIN = 0.12;
const normalizeRunning = (t: string) => t.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

const inMargin = (l: TextLine, p: PageLayout) => l.bbox.y < p.height * MARGIN || bottom(l.bbox) > p.height * (1 - MARGIN);
const runningKey = (l: TextLine) => `${normalizeRunning(l.text)}@${Math.round(l.bbox.y / 6)}`;

/**
 * Lines that repeat at the same place on many pages (running headers/footers) and page numbers in
 * the top/bottom margin. Needs the whole document: every page is counted first (`add`), then each
 * is flagged and its blocks rebuilt without them (`mark`). Counting holds only the margin lines'
 * keys, so a long manual can be marked a range of pages at a time (chunk.ts ManualChunker).
 */
export class RunningLines {
  private readonly counts = new Map<string, number>();
  private pages = 0;

  add(p: PageLayout): void {
    this.pages++;
    const keys = new Set(p.lines.filter((l) => !l.ocr && inMargin(l, p)).map(runningKey));
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  /** The page with its running lines and margin page numbers flagged and its blocks rebuilt without them. */
  mark<P extends PageLayout>(p: P): P {
    const minRepeats = this.pages >= 3 ? Math.max(3, Math.ceil(this.pages * 0.3)) : Infinity;
    const lines = p.lines.map((l) => {
      if (l.ocr || !inMargin(l, p)) return l;
      const running = (this.counts.get(runningKey(l)) ?? 0) >= minRepeats || PAGE_NUMBER.test(l.text.trim());
      return running === !!l.running ? l : { ...l, running };
    });
    return { ...p, ...layoutPage(p.page, p.width, p.height, lines) };
  }
}
