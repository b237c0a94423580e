/**
 * Structure units from a page's layout: tables (a grid with header rows, row labels,
 * spanning headers and cells, continued across page breaks), procedures (numbered or bulleted
 * steps under their heading, to the last step, across page breaks), labelled values ("key: value",
 * "key …… value", spec lines), code lists (a code and its meaning), figures (the image region, its
 * caption, its callout labels) and paragraphs — each with its boxes (PDF points, top-left origin).
 *
 * One path for every page: it reads the lines and blocks of layout.ts, which come from the text
 * layer or from OCR word boxes alike, so a scanned table is read from its aligned words the way a
 * printed one is. Pure functions; no PDF or OCR here.
 *
 * Why our own reader: the table extractors on npm (pdf-table-extractor, pdf2table,
 * @pomgui/pdf-tables-parser, pdfexcavator) parse the PDF themselves with their own, older pdf.js
 * and cannot read OCR word boxes, so none fits a single path for text and scanned pages.
 *
 * Every threshold below is in units of the font size (em) or of the page width, chosen on the
 * generated structure manual (lib/sample/testing/tables.ts) and checked on the public manuals' counts;
 * none is taken from a question.
 */
import { type BBox, union } from './geometry';
import { type PageLayout, RunningLines, type TextBlock, type TextLine, buildBlocks } from './layout';

interface UnitRegion {
  page: number;
  bbox: BBox;
}

interface TableColumn {
  /** Header texts over the column, top header row first (a spanning header repeats over its columns). */
  header: string[];
  /** The unit a header states: "Power (W)" → "W", "Fuse [A]" → "A". */
  unit: string | null;
}

interface TableRow {
  /** Text of the row-label (first) column; a row under a row-spanning label inherits it. */
  label: string;
  inherited?: boolean;
  page: number;
  bbox: BBox;
}

interface TableCell {
  row: number;
  col: number;
  text: string;
  page: number;
  bbox: BBox;
}

export interface TableData {
  columns: TableColumn[];
  headerRows: number;
  rows: TableRow[];
  /** Body cells, row labels (col 0) included. */
  cells: TableCell[];
}

interface ProcedureStep {
  marker: string;
  text: string;
  page: number;
  bbox: BBox;
}

interface UnitBase {
  /** First page (1-based) the unit is on. */
  page: number;
  /** One box per page the unit covers, in page order. */
  regions: UnitRegion[];
  /** The heading the unit sits under (carried over page breaks). */
  heading: string | null;
  /** The unit as plain text (what a reader quotes). */
  text: string;
  ocr: boolean;
}

export type StructureUnit =
  | (UnitBase & { kind: 'table'; table: TableData })
  | (UnitBase & { kind: 'code_list'; entries: Array<{ code: string; meaning: string; page: number; bbox: BBox }>; table?: TableData })
  | (UnitBase & { kind: 'procedure'; steps: ProcedureStep[] })
  | (UnitBase & { kind: 'labelled_value'; key: string; value: string })
  | (UnitBase & { kind: 'figure'; caption: string | null; labels: string[] })
  | (UnitBase & { kind: 'paragraph' });

/** What the reader needs of a page: its layout and (text pages) the raster image regions. */
export type StructurePage = PageLayout & { images?: ReadonlyArray<{ bbox: BBox }> };

const right = (b: BBox) => b.x + b.w;
const bottom = (b: BBox) => b.y + b.h;
const median = (xs: number[]) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const clean = (t: string) => t.replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------------------------------------
// Patterns (shapes of print, not words of any question)

/** A step marker: "1.", "2)", "(3)", "Step 4", or a bullet glyph. */
const STEP = /^(?:(?:step\s+)?\(?(\d{1,2})[.):]|([•·▪●◦■□➢►✓✔\-–*]))\s+(\S.*)$/iu;
/** "Key: value" with a short key that starts with a letter. */
const KEY_COLON = /^(\p{L}[^:]{1,40}?)\s*:\s+(\S.{0,60})$/u;
/** "Key ....... value" (dot leaders). */
const KEY_LEADER = /^(\p{L}.{1,60}?)\s*(?:\.{3,}|…{2,}|·{3,}|_{3,})\s*(\S.{0,40})$/u;
/** A spec line: a label without digits, then a value that starts with a number. */
const SPEC_LINE =
  /^(\p{L}[\p{L}\s\-/()&,]{2,40}?)\s+([-+±−]?\d[\d.,]*(?:\s*(?:…|\.\.\.|-|–|to|\/)\s*[-+−]?\d[\d.,]*)?\s*[\p{L}°%Ω/µ²³]{0,8}(?:\s+[\p{L}°%]{1,4})?)$/u;
/** A code as printed in code tables: letters then digits ("E01", "F-11", "Err 3"), or hex. */
const CODE = /^(?:[A-Z]{1,4}[-\s]?\d{1,4}[A-Z]?|0x[0-9A-F]{1,4})$/;
/** "F-11 Heater open", "E3: Overheat", "E3 – Overheat". */
const CODE_LINE = /^([A-Z]{1,4}[-\s]?\d{1,4}[A-Z]?)\s*(?:[:=–—-]\s*|\s{1,})(\p{L}.*)$/u;
/** A figure caption: "Figure 3", "Fig. 2-1", "Abb. 4". */
const CAPTION = /^(?:fig(?:ure)?|abb(?:ildung)?|illustration)\.?\s*\d[\d.\-–]*/i;
/** "(continued)", "cont'd": a table's or procedure's continuation overleaf. */
const CONTINUED = /\b(?:continued|cont(?:'|’)?d)\b/i;
/** A step number or bullet standing in a cell of its own. */
const MARKER_CELL = /^(?:\(?\d{1,2}[.)]|[•·▪●◦■□➢►✓✔\-–*])$/u;
/** "Power (W)", "Fuse [A]": the unit of a header. */
const HEADER_UNIT = /[([]\s*([^()[\]]{1,12}?)\s*[)\]]\s*$/;

// ---------------------------------------------------------------------------------------------
// Tables

/**
 * A table block that layout.ts kept whole can hold two columns of a page (a narrow table in one
 * column, prose in the other) or a heading between two tables. Splits it into blocks of its own.
 */
function splitTableBlock(block: TextBlock, pageWidth: number, bodySize: number): TextBlock[] {
  const zones = splitColumnZone(block.lines, pageWidth);
  if (zones) return zones.flatMap((side) => buildBlocks(side, bodySize)).flatMap((b) => (b.kind === 'table' ? splitAtHeadings(b) : [b]));
  return splitAtHeadings(block);
}

/**
 * Two columns of prose side by side: an x that no cell crosses, with at least 3 prose-wide cells
 * (≥ 25 % of the page) on each side. A real table's columns never both hold prose lines that wide.
 */
function splitColumnZone(lines: TextLine[], pageWidth: number): [TextLine[], TextLine[]] | null {
  const cells = lines.flatMap((l) => l.cells);
  let best = -1,
    bestRun = 0,
    runStart = -1;
  for (let x = Math.round(pageWidth * 0.3); x <= pageWidth * 0.7; x += 2) {
    const free = !cells.some((c) => c.bbox.x + 1 < x && right(c.bbox) - 1 > x);
    if (free && runStart < 0) runStart = x;
    if (free && x - runStart >= bestRun) {
      bestRun = x - runStart;
      best = runStart + bestRun / 2;
    }
    if (!free) runStart = -1;
  }
  if (best < 0) return null;
  const wide = (c: { bbox: BBox }) => c.bbox.w >= 0.25 * pageWidth;
  const left = cells.filter((c) => right(c.bbox) <= best);
  const rightSide = cells.filter((c) => c.bbox.x >= best);
  if (left.filter(wide).length < 3 || rightSide.filter(wide).length < 3) return null;
  const side = (keep: (c: { bbox: BBox }) => boolean, column: number): TextLine[] =>
    lines.flatMap((l) => {
      const own = l.cells.filter(keep);
      if (own.length === 0) return [];
      return [{ ...l, cells: own, text: own.map((c) => c.text).join(' '), bbox: union(own.map((c) => c.bbox)), column }];
    });
  return [side((c) => right(c.bbox) <= best, 1), side((c) => c.bbox.x >= best, 2)];
}

/** A single-cell line in a larger type inside a table block is a heading between two tables. */
function splitAtHeadings(block: TextBlock): TextBlock[] {
  const size = median(block.lines.map((l) => l.fontSize));
  const out: TextBlock[] = [];
  let cur: TextLine[] = [];
  const flush = () => {
    if (cur.length) out.push(...(cur.some((l) => l.cells.length > 1) ? [{ ...block, lines: cur, bbox: union(cur.map((l) => l.bbox)) }] : buildBlocks(cur)));
    cur = [];
  };
  for (const l of block.lines) {
    if (l.cells.length === 1 && l.fontSize >= 1.15 * size) {
      flush();
      out.push({ kind: 'heading', text: l.text, bbox: l.bbox, lines: [l], fontSize: l.fontSize, ocr: l.ocr, level: 1 });
    } else cur.push(l);
  }
  flush();
  return out;
}

interface Band {
  x0: number;
  x1: number;
}

/**
 * Column bands from the body rows with the most common number of cells (a spanning header has
 * fewer; a header row of as many cells is left out by its look, since its texts are aligned
 * differently from the values): cells that overlap horizontally belong to one column, whatever
 * their alignment.
 */
function columnBands(lines: TextLine[]): Band[] {
  const multi = lines.filter((l) => l.cells.length > 1);
  const counts = new Map<number, number>();
  for (const l of multi) counts.set(l.cells.length, (counts.get(l.cells.length) ?? 0) + 1);
  // The largest cell count that at least two rows (or a third of them) share.
  const enough = Math.max(2, Math.ceil(multi.length / 3));
  let n = 0;
  for (const [k, c] of counts) if ((c >= enough || c >= 2) && k > n) n = k;
  if (n === 0) n = Math.max(...multi.map((l) => l.cells.length));
  let modal = multi.filter((l) => l.cells.length === n);
  const withDigits = modal.filter((l) => l.cells.some((c) => hasDigit(c.text)));
  const body = modal.filter((l) => !(l.bold && !l.ocr) && (withDigits.length * 2 < modal.length || l.cells.some((c) => hasDigit(c.text))));
  if (body.length >= 2) modal = body;
  const intervals = modal.flatMap((l) => l.cells.map((c) => ({ x0: c.bbox.x, x1: right(c.bbox) }))).sort((a, b) => a.x0 - b.x0);
  const bands: Band[] = [];
  for (const iv of intervals) {
    const last = bands.at(-1);
    if (last && iv.x0 < last.x1) last.x1 = Math.max(last.x1, iv.x1);
    else bands.push({ ...iv });
  }
  return bands;
}

/** Column bounds: each band widened to the midpoints of the gaps beside it, so they tile the table. */
function columnBounds(bands: Band[]): Band[] {
  return bands.map((b, i) => ({
    x0: i === 0 ? -Infinity : (bands[i - 1].x1 + b.x0) / 2,
    x1: i === bands.length - 1 ? Infinity : (b.x1 + bands[i + 1].x0) / 2,
  }));
}

const columnOf = (bounds: Band[], b: BBox) => {
  const cx = b.x + b.w / 2;
  const i = bounds.findIndex((c) => cx >= c.x0 && cx < c.x1);
  return i < 0 ? bounds.length - 1 : i;
};
const hasDigit = (t: string) => /\d/.test(t);

/** Reads a table block into a grid; null when it does not hold at least two columns and two rows. */
export function readTable(lines: TextLine[], page: number): TableData | null {
  const bands = columnBands(lines);
  if (bands.length < 2) return null;
  const bounds = columnBounds(bands);
  const ncol = bands.length;
  const fs = median(lines.map((l) => l.fontSize)) || 10;

  // Rows: a line starts a row unless it continues wrapped cells of the row above (no label cell,
  // tight under the line above, and not a row of values of its own).
  type RowAcc = { lines: TextLine[]; cells: Array<Array<{ text: string; bbox: BBox }>> };
  const rows: RowAcc[] = [];
  for (const l of lines) {
    const cols = l.cells.map((c) => ({ c, col: columnOf(bounds, c.bbox) }));
    const prev = rows.at(-1);
    const gap = prev ? l.bbox.y - bottom(prev.lines.at(-1)!.bbox) : Infinity;
    const labelCell = cols.some((x) => x.col === 0);
    const allValues = l.cells.every((c) => hasDigit(c.text));
    if (prev && !labelCell && gap < 0.5 * fs && !(allValues && l.cells.length > 1)) {
      prev.lines.push(l);
      for (const { c, col } of cols) prev.cells[col].push(c);
      continue;
    }
    const cells: RowAcc['cells'] = Array.from({ length: ncol }, () => []);
    for (const { c, col } of cols) cells[col].push(c);
    rows.push({ lines: [l], cells });
  }
  if (rows.length < 2) return null;

  // Header rows: leading rows in bold, or without digits over a body that has them, or under a spanning header.
  const bodyDigits = rows
    .slice(1)
    .flatMap((r) => r.cells.slice(1).flat())
    .filter((c) => hasDigit(c.text)).length;
  const bodyCells = rows.slice(1).flatMap((r) => r.cells.slice(1).flat()).length;
  const numericBody = bodyCells > 0 && bodyDigits / bodyCells >= 0.5;
  // A header cell covers the columns whose band centre it spans, else the column under its centre.
  const covered = (b: BBox) => {
    const over = bands.map((band, i) => ((band.x0 + band.x1) / 2 >= b.x && (band.x0 + band.x1) / 2 <= right(b) ? i : -1)).filter((i) => i >= 0);
    return over.length ? over : [columnOf(bounds, b)];
  };
  const isSpanning = (r: RowAcc) =>
    r.lines.some((l) => l.cells.some((c) => covered(c.bbox).length > 1)) || r.lines.some((l) => l.cells.length < ncol - 1 && l.cells.length > 1);
  const headerLike = (r: RowAcc) => {
    const cells = r.cells.flat();
    const bold = r.lines.every((l) => l.bold && !l.ocr);
    return bold || (numericBody && !cells.some((c) => hasDigit(c.text)));
  };
  // Models or variants side by side: a first row with an empty corner (no row label) over columns
  // of names that are not values ("CC4-B20S" holds digits, but no cell starts with one).
  const cornerHeader = (r: RowAcc) =>
    r.cells[0].length === 0 &&
    r.cells.slice(1).filter((cs) => cs.length).length >= 2 &&
    !r.cells
      .slice(1)
      .flat()
      .some((c) => /^[-+±~]?\d/.test(c.text));
  let headerRows = 0;
  while (headerRows < Math.min(3, rows.length - 1)) {
    const r = rows[headerRows];
    const prevSpanning = headerRows > 0 && isSpanning(rows[headerRows - 1]);
    if (headerLike(r) || (headerRows === 0 && (isSpanning(r) || cornerHeader(r))) || prevSpanning) headerRows++;
    else break;
  }
  // A table whose first row is no header by these signs still has one when it has 3+ columns of
  // text over a first row without digits (a word table: "Symptom | Cause | Remedy").
  if (
    headerRows === 0 &&
    ncol >= 3 &&
    !rows[0].cells.flat().some((c) => hasDigit(c.text)) &&
    rows[0].cells.filter((cs) => cs.length).length >= ncol - 1 &&
    rows.length >= 3
  )
    headerRows = 1;

  const columns: TableColumn[] = Array.from({ length: ncol }, () => ({ header: [], unit: null }));
  for (const r of rows.slice(0, headerRows)) {
    const placed = new Set<number>();
    for (const c of r.lines.flatMap((l) => l.cells)) {
      for (const i of covered(c.bbox)) {
        const h = columns[i].header;
        // Wrapped header lines of one row join; a new header row adds a level.
        if (placed.has(i)) h[h.length - 1] = clean(`${h[h.length - 1]} ${c.text}`);
        else h.push(clean(c.text));
        placed.add(i);
      }
    }
    // A centred spanning header may not reach the band centres of its outer columns: a column
    // under no cell of this row joins a neighbour's cell when that cell is centred over both.
    const cellsOfRow = r.lines.flatMap((l) => l.cells);
    const owner = new Map<number, (typeof cellsOfRow)[number]>();
    for (const c of cellsOfRow) for (const i of covered(c.bbox)) owner.set(i, c);
    for (let changed = true; changed;) {
      changed = false;
      for (let i = 1; i < ncol; i++) {
        if (owner.has(i)) continue;
        for (const n of [i - 1, i + 1]) {
          const cell = n > 0 ? owner.get(n) : undefined;
          if (!cell) continue;
          const span = [...owner.entries()]
            .filter(([, c]) => c === cell)
            .map(([k]) => k)
            .concat(i);
          const x0 = Math.min(...span.map((k) => bands[k].x0)),
            x1 = Math.max(...span.map((k) => bands[k].x1));
          if (Math.abs(cell.bbox.x + cell.bbox.w / 2 - (x0 + x1) / 2) < 0.15 * (x1 - x0)) {
            owner.set(i, cell);
            columns[i].header.push(clean(cell.text));
            changed = true;
            break;
          }
        }
      }
    }
  }
  for (const c of columns) {
    const m = HEADER_UNIT.exec(c.header.at(-1) ?? '');
    c.unit = m ? m[1] : null;
  }

  const body = rows.slice(headerRows);
  const outRows: TableRow[] = [];
  const cells: TableCell[] = [];
  let lastLabel = '';
  body.forEach((r, ri) => {
    const labelCells = r.cells[0];
    let label = clean(labelCells.map((c) => c.text).join(' '));
    const inherited = !label && !!lastLabel;
    if (inherited) label = lastLabel;
    lastLabel = label;
    const bbox = union(r.lines.map((l) => l.bbox));
    outRows.push({ label, ...(inherited ? { inherited } : {}), page, bbox });
    r.cells.forEach((cs, col) => {
      if (cs.length === 0) return;
      cells.push({ row: ri, col, text: clean(cs.map((c) => c.text).join(' ')), page, bbox: union(cs.map((c) => c.bbox)) });
    });
  });
  if (outRows.length === 0) return null;
  return { columns, headerRows, rows: outRows, cells };
}

/** A table's text: one line per row, "label · header: value · header: value". */
function tableText(t: TableData): string {
  const head = t.columns
    .map((c) => c.header.join(' '))
    .filter(Boolean)
    .join(' | ');
  const lines = t.rows.map((r, i) => {
    const parts = t.cells
      .filter((c) => c.row === i && c.col > 0)
      .map((c) => {
        const h = t.columns[c.col].header.join(' ');
        return h ? `${h}: ${c.text}` : c.text;
      });
    return [r.label, ...parts].filter(Boolean).join(' · ');
  });
  return [head, ...lines].filter(Boolean).join('\n');
}

/** Same columns as a table above it (header texts, or column positions within 1 em): its continuation. */
function continuesTable(prev: TableData, next: TableData, nextLines: TextLine[], prevLines: TextLine[]): boolean {
  if (prev.columns.length !== next.columns.length) return false;
  const sameHeader = next.headerRows > 0 && next.columns.every((c, i) => c.header.join(' ') === prev.columns[i].header.join(' '));
  if (sameHeader) return true;
  if (next.headerRows > 0) return false;
  const fs = median(nextLines.map((l) => l.fontSize)) || 10;
  const a = columnBands(prevLines),
    b = columnBands(nextLines);
  return a.length === b.length && a.every((band, i) => Math.abs(band.x0 - b[i].x0) <= fs || Math.abs(band.x1 - b[i].x1) <= fs);
}

function appendTable(prev: TableData, next: TableData): void {
  const offset = prev.rows.length;
  let lastLabel = prev.rows.at(-1)?.label ?? '';
  for (const r of next.rows) {
    const inherited = r.inherited || !r.label;
    prev.rows.push({ ...r, label: r.label || lastLabel, ...(inherited ? { inherited: true } : {}) });
    lastLabel = r.label || lastLabel;
  }
  for (const c of next.cells) prev.cells.push({ ...c, row: c.row + offset });
}

// ---------------------------------------------------------------------------------------------
// Paragraph blocks: steps, labelled values, code lines, prose

type LineItem =
  | { kind: 'step'; marker: string; number: number | null; lines: TextLine[] }
  | { kind: 'value'; key: string; value: string; line: TextLine }
  | { kind: 'code'; code: string; meaning: string; lines: TextLine[] }
  | { kind: 'prose'; lines: TextLine[] };

function labelledValue(text: string): { key: string; value: string } | null {
  const leader = KEY_LEADER.exec(text);
  if (leader) {
    // A table-of-contents line ends in a bare page number: no value.
    if (/^\d{1,4}$/.test(leader[2].trim())) return null;
    return { key: clean(leader[1]), value: clean(leader[2]) };
  }
  const colon = KEY_COLON.exec(text);
  if (colon && colon[1].split(/\s+/).length <= 6 && colon[2].split(/\s+/).length <= 8 && !/[.!?]$/.test(colon[2]))
    return { key: clean(colon[1]), value: clean(colon[2]) };
  const spec = SPEC_LINE.exec(text);
  if (spec && text.split(/\s+/).length <= 9) return { key: clean(spec[1]), value: clean(spec[2]) };
  return null;
}

/** Splits a paragraph block's lines into steps (marker + hanging lines), labelled values, code lines and prose. */
function lineItems(block: TextBlock): LineItem[] {
  const out: LineItem[] = [];
  const single = block.lines.length === 1;
  for (const l of block.lines) {
    const text = clean(l.text);
    const last = out.at(-1);
    const step = STEP.exec(text);
    if (step) {
      out.push({ kind: 'step', marker: step[1] ?? step[2], number: step[1] ? Number(step[1]) : null, lines: [l] });
      continue;
    }
    // A line indented past the marker of the step above continues it (hanging indent).
    if (last?.kind === 'step' && l.bbox.x > last.lines[0].bbox.x + 0.5 * l.fontSize) {
      last.lines.push(l);
      continue;
    }
    const code = CODE_LINE.exec(text);
    if (code && text.split(/\s+/).length <= 16) {
      out.push({ kind: 'code', code: code[1], meaning: clean(code[2]), lines: [l] });
      continue;
    }
    // Values stand on lines of their own: in a one-line block, or a block of such lines.
    const kv = labelledValue(text);
    const afterSentence = last?.kind === 'prose' && /[.!?:]$/.test(clean(last.lines.at(-1)!.text));
    if (kv && (single || !last || last.kind === 'value' || afterSentence)) {
      out.push({ kind: 'value', ...kv, line: l });
      continue;
    }
    if (last?.kind === 'prose') last.lines.push(l);
    else if (last?.kind === 'code' && l.bbox.x > last.lines[0].bbox.x + 0.5 * l.fontSize) last.lines.push(l);
    else out.push({ kind: 'prose', lines: [l] });
  }
  return out;
}

const stepText = (s: { lines: TextLine[] }) => clean(s.lines.map((l) => l.text).join(' '));

// ---------------------------------------------------------------------------------------------
// The manual

interface OpenProcedure {
  unit: Extract<StructureUnit, { kind: 'procedure' }>;
  bullet: boolean;
  lastNumber: number | null;
}

/**
 * Reads the structure units of a whole manual (its pages in order): running headers and footers
 * are set aside first (they would break a table's continuation), headings carry across pages,
 * a table or a numbered procedure continued at the top of the next page joins its first part.
 */
export function readManualStructure(pages: StructurePage[]): StructureUnit[] {
  const running = new RunningLines();
  for (const p of pages) running.add(p);
  const ocrRunning = new RunningOcrLines(pages);
  const reader = new StructureReader();
  for (const p of pages) reader.page(ocrRunning.mark(running.mark(p)));
  return reader.finish();
}

/** Top and bottom 8 % of a page: where running headers and footers sit (the generated and public manuals' margins). */
const OCR_MARGIN = 0.08;
const runningKey = (t: string) =>
  t
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/[^\p{L}#]+/gu, '');

/**
 * RunningLines (layout.ts) leaves OCR lines alone; on scanned pages a header or footer is OCR
 * text too. Lines in the margins whose letters (digits as one) repeat on at least 3 pages and
 * 30 % of them — RunningLines' own rule — are set aside, and the page's blocks rebuilt.
 */
class RunningOcrLines {
  private readonly repeated = new Set<string>();
  constructor(pages: StructurePage[]) {
    const counts = new Map<string, number>();
    for (const p of pages) {
      const keys = new Set(p.lines.filter((l) => l.ocr && this.inMargin(l, p)).map((l) => runningKey(l.text)));
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const min = Math.max(3, Math.ceil(pages.length * 0.3));
    for (const [k, n] of counts) if (k && n >= min) this.repeated.add(k);
  }
  private inMargin(l: TextLine, p: StructurePage): boolean {
    return l.bbox.y < p.height * OCR_MARGIN || bottom(l.bbox) > p.height * (1 - OCR_MARGIN);
  }
  mark<P extends StructurePage>(p: P): P {
    if (this.repeated.size === 0) return p;
    const keep = p.lines.filter((l) => !(l.ocr && !l.running && this.inMargin(l, p) && this.repeated.has(runningKey(l.text))));
    if (keep.length === p.lines.length) return p;
    return {
      ...p,
      lines: keep,
      blocks: buildBlocks(
        keep.filter((l) => !l.running),
        p.bodyFontSize || undefined,
      ),
    };
  }
}

class StructureReader {
  private readonly units: StructureUnit[] = [];
  private heading: string | null = null;
  /** The last table read, with its lines, while nothing but a continuation may follow it. */
  private openTable: { unit: Extract<StructureUnit, { kind: 'table' | 'code_list' }>; table: TableData; lines: TextLine[] } | null = null;
  private openProcedure: OpenProcedure | null = null;
  /** Units of the current page so far (a continuation must come first on its page). */
  private onPage = 0;

  finish(): StructureUnit[] {
    this.closeProcedure();
    return this.units;
  }

  page(p: StructurePage): void {
    this.onPage = 0;
    const blocks = p.blocks.flatMap((b) => (b.kind === 'table' ? splitTableBlock(b, p.width, p.bodyFontSize) : [b]));
    const captions = new Set<TextBlock>();
    const figureLines = new Map<number, TextLine[]>();
    for (const b of blocks) if (b.kind === 'figure') for (const l of b.lines) figureLines.set(l.region ?? -1, [...(figureLines.get(l.region ?? -1) ?? []), l]);

    // Figures: each image region with its caption (a "Figure n" line near it, else none) and its
    // labels, emitted where the image sits in the reading order (under the heading above it).
    const figures: Array<{ y: number; emit: () => void }> = [];
    (p.images ?? []).forEach((img, index) => {
      const near = (b: TextBlock) =>
        b.kind !== 'figure' &&
        b.kind !== 'table' &&
        Math.min(Math.abs(b.bbox.y - bottom(img.bbox)), Math.abs(bottom(b.bbox) - img.bbox.y)) <= 3 * (p.bodyFontSize || 10);
      const caption = blocks.find((b) => near(b) && CAPTION.test(clean(b.text)));
      if (caption) captions.add(caption);
      const inside = p.lines.filter(
        (l) =>
          !l.running &&
          !l.ocr &&
          l.bbox.x >= img.bbox.x - 1 &&
          right(l.bbox) <= right(img.bbox) + 1 &&
          l.bbox.y >= img.bbox.y - 1 &&
          bottom(l.bbox) <= bottom(img.bbox) + 1,
      );
      const ocr = figureLines.get(index) ?? [];
      const labels = [...inside, ...ocr].map((l) => clean(l.text)).filter(Boolean);
      const box = caption ? union([img.bbox, caption.bbox]) : img.bbox;
      figures.push({
        y: img.bbox.y,
        emit: () =>
          this.push({
            kind: 'figure',
            page: p.page,
            regions: [{ page: p.page, bbox: box }],
            heading: this.heading,
            caption: caption ? clean(caption.text) : null,
            labels,
            text: [caption ? clean(caption.text) : '', ...labels].filter(Boolean).join('\n'),
            ocr: ocr.length > 0,
          }),
      });
    });
    const figuresAbove = (y: number) => {
      while (figures.length && figures[0].y <= y) figures.shift()!.emit();
    };
    figures.sort((a, b) => a.y - b.y);
    const imageBoxes = (p.images ?? []).map((i) => i.bbox);

    for (const b of blocks) {
      figuresAbove(b.bbox.y);
      if (captions.has(b)) continue;
      if (b.kind === 'figure') continue;
      if (b.kind === 'heading') {
        // "Parameter list (continued)" at the top of a page: the table or procedure goes on.
        if (CONTINUED.test(b.text) && this.onPage === 0) continue;
        this.closeProcedure();
        this.openTable = null;
        this.heading = clean(b.text);
        continue;
      }
      if (b.kind === 'table') {
        this.table(b, p.page);
        continue;
      }
      if (imageBoxes.some((box) => b.bbox.x >= box.x - 1 && right(b.bbox) <= right(box) + 1 && b.bbox.y >= box.y - 1 && bottom(b.bbox) <= bottom(box) + 1))
        continue;
      this.paragraph(b, p.page);
    }
    figuresAbove(Infinity);
  }

  private push(u: StructureUnit): void {
    this.units.push(u);
    this.onPage++;
  }

  private table(b: TextBlock, page: number): void {
    // OCR keeps a step's number apart from its text (layout.ts joins them only for the text
    // layer): a "table" whose first column is all step markers is a list.
    const rowsWithCells = b.lines.filter((l) => l.cells.length > 1);
    if (rowsWithCells.length >= 2 && rowsWithCells.every((l) => l.cells.length === 2 && MARKER_CELL.test(l.cells[0].text.trim()))) {
      const lines = b.lines.map((l) => (l.cells.length === 2 ? { ...l, cells: [{ text: l.text, bbox: l.bbox }] } : l));
      this.paragraph({ ...b, kind: 'paragraph', lines }, page);
      return;
    }
    this.closeProcedure();
    const table = readTable(b.lines, page);
    if (!table) {
      this.paragraph({ ...b, kind: 'paragraph' }, page);
      return;
    }
    const prev = this.openTable;
    // The first unit of a page (after a "… (continued)" line at most) continuing the last table of the previous one.
    const first = this.units.slice(this.units.length - this.onPage).every((u) => u.kind === 'paragraph' && CONTINUED.test(u.text));
    if (prev && first && prev.unit.regions.at(-1)!.page === page - 1 && continuesTable(prev.table, table, b.lines, prev.lines)) {
      appendTable(prev.table, table);
      prev.unit.regions.push({ page, bbox: b.bbox });
      prev.unit.text = tableText(prev.table);
      if (prev.unit.kind === 'code_list') prev.unit.entries = codeEntries(prev.table) ?? prev.unit.entries;
      prev.unit.ocr ||= b.ocr;
      prev.lines = b.lines;
      this.onPage++;
      return;
    }
    const entries = codeEntries(table);
    const base = { page, regions: [{ page, bbox: b.bbox }], heading: this.heading, text: tableText(table), ocr: b.ocr };
    const unit: Extract<StructureUnit, { kind: 'table' | 'code_list' }> = entries
      ? { kind: 'code_list', ...base, entries, table }
      : { kind: 'table', ...base, table };
    this.push(unit);
    this.openTable = { unit, table, lines: b.lines };
  }

  private paragraph(b: TextBlock, page: number): void {
    const items = lineItems(b);
    // Code lines: two or more in a row form a code list; a lone one is prose.
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (it.kind === 'step') {
        this.step(it, page, b.ocr);
        continue;
      }
      if (it.kind === 'code') {
        let j = i;
        while (j + 1 < items.length && items[j + 1].kind === 'code') j++;
        const run = items.slice(i, j + 1) as Array<Extract<LineItem, { kind: 'code' }>>;
        if (run.length >= 2 || this.lastCodeListOnPage(page)) {
          this.closeProcedure();
          this.codeLines(run, page, b.ocr);
          i = j;
          continue;
        }
        items[i] = { kind: 'prose', lines: it.lines };
      }
      const cur = items[i];
      if (cur.kind === 'value') {
        this.closeProcedure();
        this.openTable = null;
        this.push({
          kind: 'labelled_value',
          page,
          regions: [{ page, bbox: cur.line.bbox }],
          heading: this.heading,
          key: cur.key,
          value: cur.value,
          text: `${cur.key}: ${cur.value}`,
          ocr: cur.line.ocr,
        });
      } else if (cur.kind === 'prose') {
        const text = clean(cur.lines.map((l) => l.text).join(' '));
        // A note between two numbered steps stays inside the procedure; a bulleted list ends at prose.
        if (this.openProcedure?.bullet) this.closeProcedure();
        if (!CONTINUED.test(text)) this.openTable = null;
        this.push({
          kind: 'paragraph',
          page,
          regions: [{ page, bbox: union(cur.lines.map((l) => l.bbox)) }],
          heading: this.heading,
          text,
          ocr: cur.lines.some((l) => l.ocr),
        });
      }
    }
  }

  private lastCodeListOnPage(page: number): Extract<StructureUnit, { kind: 'code_list' }> | null {
    const u = this.units.at(-1);
    return u?.kind === 'code_list' && !u.table && u.regions.at(-1)!.page === page ? u : null;
  }

  private codeLines(run: Array<Extract<LineItem, { kind: 'code' }>>, page: number, ocr: boolean): void {
    const entries = run.map((c) => {
      const bbox = union(c.lines.map((l) => l.bbox));
      return { code: c.code, meaning: clean([c.meaning, ...c.lines.slice(1).map((l) => l.text)].join(' ')), page, bbox };
    });
    const box = union(entries.map((e) => e.bbox));
    const open = this.lastCodeListOnPage(page);
    if (open) {
      open.entries.push(...entries);
      open.regions[open.regions.length - 1].bbox = union([open.regions.at(-1)!.bbox, box]);
      open.text = open.entries.map((e) => `${e.code}: ${e.meaning}`).join('\n');
      return;
    }
    this.push({
      kind: 'code_list',
      page,
      regions: [{ page, bbox: box }],
      heading: this.heading,
      entries,
      text: entries.map((e) => `${e.code}: ${e.meaning}`).join('\n'),
      ocr,
    });
  }

  private step(it: Extract<LineItem, { kind: 'step' }>, page: number, ocr: boolean): void {
    this.openTable = null;
    const step: ProcedureStep = { marker: it.marker, text: stepText(it).replace(STEP, '$3'), page, bbox: union(it.lines.map((l) => l.bbox)) };
    const open = this.openProcedure;
    const bullet = it.number === null;
    const follows = open && open.bullet === bullet && (bullet ? open.unit.steps[0].marker === it.marker : it.number === (open.lastNumber ?? 0) + 1);
    if (open && follows) {
      open.unit.steps.push(step);
      open.lastNumber = it.number;
      const region = open.unit.regions.find((r) => r.page === page);
      if (region) region.bbox = union([region.bbox, step.bbox]);
      else open.unit.regions.push({ page, bbox: step.bbox });
      open.unit.ocr ||= ocr;
      return;
    }
    this.closeProcedure();
    // A numbered list starts at 1; a later number with nothing open is a stray numbered line.
    if (!bullet && it.number !== 1) {
      this.push({ kind: 'paragraph', page, regions: [{ page, bbox: step.bbox }], heading: this.heading, text: stepText(it), ocr });
      return;
    }
    const unit: Extract<StructureUnit, { kind: 'procedure' }> = {
      kind: 'procedure',
      page,
      regions: [{ page, bbox: step.bbox }],
      heading: this.heading,
      steps: [step],
      text: '',
      ocr,
    };
    this.openProcedure = { unit, bullet, lastNumber: it.number };
  }

  /** Ends the open procedure: two or more steps make a procedure, a lone item is a paragraph. */
  private closeProcedure(): void {
    const open = this.openProcedure;
    if (!open) return;
    this.openProcedure = null;
    const u = open.unit;
    if (u.steps.length >= 2) {
      u.text = [u.heading ?? '', ...u.steps.map((s) => `${s.marker}${/\d/.test(s.marker) ? '.' : ''} ${s.text}`)].filter(Boolean).join('\n');
      // Procedures are emitted when they end; keep page order by inserting after the units of its first page.
      const at = this.units.findIndex((x) => x.page > u.page);
      if (at < 0) this.units.push(u);
      else this.units.splice(at, 0, u);
    } else {
      const s = u.steps[0];
      this.units.push({
        kind: 'paragraph',
        page: s.page,
        regions: [{ page: s.page, bbox: s.bbox }],
        heading: u.heading,
        text: `${s.marker} ${s.text}`,
        ocr: u.ocr,
      });
    }
  }
}

/** A table whose label column holds codes (≥ 60 % of its rows, at least 2): a code list. */
function codeEntries(t: TableData): Array<{ code: string; meaning: string; page: number; bbox: BBox }> | null {
  if (t.columns.length < 2 || t.rows.length < 2) return null;
  const coded = t.rows.filter((r) => CODE.test(r.label.trim()));
  if (coded.length < 2 || coded.length < 0.6 * t.rows.length) return null;
  return t.rows.map((r, i) => {
    const meaning = t.cells
      .filter((c) => c.row === i && c.col === 1)
      .map((c) => c.text)
      .join(' ');
    return { code: r.label, meaning, page: r.page, bbox: r.bbox };
  });
}
