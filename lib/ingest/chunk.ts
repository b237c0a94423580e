/**
 * Section-aware chunking. Chunks follow the page's blocks: a heading starts a new chunk and sets
 * the heading path ("Specifications > Electrical"), paragraphs fill a chunk up to ~400 tokens,
 * tables stay whole (or split between rows with the header row repeated), and nothing crosses a
 * page, so every chunk cites exactly one page with the boxes of its lines for highlighting.
 */
import type { Passage } from '../providers/types';
import { type BlockKind, type PageLayout, RunningLines, type TextBlock, type TextLine, blockText } from './layout';

export interface ChunkOptions {
  /** Upper bound per chunk (estimated tokens). */
  maxTokens?: number;
  /** Chunks split for size are at least this big, except the last one of a section or page. */
  minTokens?: number;
  /** Lines repeated at the start of the next chunk when a section is split for size. */
  overlapTokens?: number;
}

/** A passage as ingest cuts it; `id` is `${manualId}:p${page}:c${index}`, index counted per page from 0. */
export interface Chunk extends Passage {
  tokens: number;
}

export const DEFAULT_CHUNK_OPTIONS: Required<ChunkOptions> = { maxTokens: 400, minTokens: 150, overlapTokens: 60 };

/** Rough token count: ~1.3 tokens per word, or 4 characters per token for dense tables and codes. */
export function estimateTokens(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.ceil(Math.max(words * 1.3, text.length / 4));
}

interface Piece {
  kind: BlockKind;
  lines: TextLine[];
  text: string;
  tokens: number;
}

const piece = (kind: BlockKind, lines: TextLine[]): Piece => {
  const text = blockText(kind, lines);
  return { kind, lines, text, tokens: estimateTokens(text) };
};

// ---------------------------------------------------------------------------------------------
// Heading path

interface StackEntry {
  text: string;
  fontSize: number;
  bold: boolean;
  number: HeadingNumber;
}

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10 };
const romanValue = (r: string) =>
  [...r].reduce((sum, ch, i, all) => {
    const v = ROMAN[ch],
      next = ROMAN[all[i + 1]] ?? 0;
    return sum + (v < next ? -v : v);
  }, 0);

export interface HeadingNumber {
  scheme: 'arabic' | 'roman' | 'none';
  /** "3.2.1" → [3, 2, 1]; "IV" → [4]; [] when not numbered. */
  parts: number[];
}

/** The outline number a heading starts with ("3.2.1 Foo", "IV. Foo", "Ⅳ．Foo"). */
export function headingNumber(text: string): HeadingNumber {
  const t = text.trim();
  const arabic = /^(\d{1,2}(?:\.\d{1,2})*)(?:[.)]|\s)/.exec(t);
  if (arabic) return { scheme: 'arabic', parts: arabic[1].split('.').map(Number) };
  const roman = /^([IVX]{1,4})\s*[.．]/.exec(t);
  if (roman) return { scheme: 'roman', parts: [romanValue(roman[1])] };
  const unicode = /^[\u2160-\u216b]/.exec(t); // Ⅰ … Ⅻ
  if (unicode) return { scheme: 'roman', parts: [unicode[0].charCodeAt(0) - 0x2160 + 1] };
  return { scheme: 'none', parts: [] };
}

/**
 * True if `outer` encloses `inner`. Outline numbers decide first ("3" encloses "3.1"; "2." and
 * "3." are siblings even when a word processor set them a few points apart), then type size, then weight.
 */
function encloses(outer: StackEntry, inner: StackEntry): boolean {
  const a = outer.number,
    b = inner.number;
  const ratio = inner.fontSize / outer.fontSize;
  if (a.scheme !== 'none' && a.scheme === b.scheme && ratio > 0.8 && ratio < 1.25) {
    return b.parts.length > a.parts.length && a.parts.every((v, i) => v === b.parts[i]);
  }
  if (outer.fontSize > inner.fontSize + 0.5) return true;
  if (outer.fontSize < inner.fontSize - 0.5) return false;
  return outer.bold && !inner.bold;
}

const cleanHeading = (t: string) =>
  t
    .replace(/\s+/g, ' ')
    .replace(/[\s:：]+$/, '')
    .trim();

// ---------------------------------------------------------------------------------------------
// Splitting blocks that do not fit

/** Table rows: a row line plus the single-cell lines that continue its wrapped cells. */
function tableRows(lines: TextLine[]): TextLine[][] {
  const rows: TextLine[][] = [];
  for (const l of lines) {
    if (l.cells.length > 1 || rows.length === 0) rows.push([l]);
    else rows[rows.length - 1].push(l);
  }
  return rows;
}

/** Splits a long single line at word boundaries; the parts keep the line's box. */
function splitLongLine(line: TextLine, max: number): TextLine[] {
  const words = line.text.split(/\s+/);
  const parts: TextLine[] = [];
  let cur: string[] = [];
  for (const w of words) {
    if (cur.length && estimateTokens([...cur, w].join(' ')) > max) {
      parts.push({ ...line, text: cur.join(' '), cells: [{ text: cur.join(' '), bbox: line.bbox }] });
      cur = [];
    }
    cur.push(w);
  }
  if (cur.length) parts.push({ ...line, text: cur.join(' '), cells: [{ text: cur.join(' '), bbox: line.bbox }] });
  return parts;
}

/** A block as pieces of at most `max` tokens: paragraphs split between lines, tables between rows. */
function splitBlock(block: TextBlock, max: number): Piece[] {
  const whole = piece(block.kind, block.lines);
  if (whole.tokens <= max) return [whole];
  if (block.kind === 'table') {
    const rows = tableRows(block.lines);
    const header = rows[0];
    const out: Piece[] = [];
    let cur: TextLine[] = [];
    for (const row of rows) {
      const next = [...cur, ...row];
      if (cur.length && piece('table', next).tokens > max) {
        out.push(piece('table', cur));
        // Continuation parts repeat the header row so their columns stay readable.
        cur = row === header || piece('table', [...header, ...row]).tokens > max ? [...row] : [...header, ...row];
      } else cur = next;
    }
    if (cur.length) out.push(piece('table', cur));
    return out.flatMap((p) => (p.tokens > max ? splitLines(p.kind, p.lines, max) : [p]));
  }
  return splitLines(block.kind, block.lines, max);
}

function splitLines(kind: BlockKind, lines: TextLine[], max: number): Piece[] {
  const out: Piece[] = [];
  let cur: TextLine[] = [];
  for (const line of lines.flatMap((l) => (estimateTokens(l.text) > max ? splitLongLine(l, max) : [l]))) {
    if (cur.length && piece(kind, [...cur, line]).tokens > max) {
      out.push(piece(kind, cur));
      cur = [];
    }
    cur.push(line);
  }
  if (cur.length) out.push(piece(kind, cur));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Chunking

/** The largest heading on a page (0: none). */
const largestHeading = (p: PageLayout) => Math.max(0, ...p.blocks.filter((b) => b.kind === 'heading').map((b) => b.fontSize));

/**
 * A heading on one page that is larger than every heading on the other pages is the document's
 * title (cover page), not a section: it would otherwise prefix every heading path. Only the page
 * with the largest heading can hold one, so the two largest pages' sizes are all it takes.
 */
class TitleSizes {
  private first = { page: NaN, size: 0 };
  private second = 0;
  private pages = 0;

  add(p: PageLayout): void {
    this.pages++;
    const size = largestHeading(p);
    if (size > this.first.size) {
      this.second = this.first.size;
      this.first = { page: p.page, size };
    } else if (size > this.second) this.second = size;
  }

  /** Headings larger than this on `page` are the title (undefined: none is). */
  limit(page: number): number | undefined {
    const elsewhere = page === this.first.page ? this.second : this.first.size;
    return this.pages > 1 && elsewhere > 0 ? elsewhere * 1.2 : undefined;
  }
}

const byPage = (a: PageLayout, b: PageLayout) => a.page - b.page;

export function chunkPages(manualId: string, pages: PageLayout[], options: ChunkOptions = {}): Chunk[] {
  const sorted = [...pages].sort(byPage);
  return ManualChunker.over(manualId, sorted, options).chunk(sorted);
}

/**
 * Cuts a manual a range of pages at a time, with the chunks chunkPages would give for the whole
 * manual: what needs every page (running headers, the title's size) is counted over all of them
 * first (`over`), and the heading path carries from one range to the next. So a long manual is
 * chunked, embedded and written in bounded batches instead of all at once (pipeline.ts).
 */
export class ManualChunker {
  private readonly stack: StackEntry[] = [];
  private readonly opts: Required<ChunkOptions>;

  private constructor(
    private readonly manualId: string,
    private readonly running: RunningLines,
    private readonly titles: TitleSizes,
    options: ChunkOptions,
  ) {
    this.opts = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  }

  /** A chunker for these pages (every page of the manual, in any order); each page is laid out once here and held by none. */
  static over(manualId: string, pages: PageLayout[], options: ChunkOptions = {}): ManualChunker {
    const running = new RunningLines();
    for (const p of pages) running.add(p);
    const titles = new TitleSizes();
    for (const p of pages) titles.add(running.mark(p));
    return new ManualChunker(manualId, running, titles, options);
  }

  /** The chunks of the next pages: call it with consecutive ranges, in page order. */
  chunk(pages: PageLayout[]): Chunk[] {
    const out: Chunk[] = [];
    for (const page of [...pages].sort(byPage)) this.cut(this.running.mark(page), out);
    return out;
  }

  private cut(page: PageLayout, out: Chunk[]): void {
    const { manualId, opts, stack } = this;
    const path = () => stack.map((s) => s.text).join(' > ');
    let index = 0;
    let pieces: Piece[] = [];
    let heading = path();
    const tokens = () => estimateTokens(pieces.map((p) => p.text).join('\n'));
    const hasContent = () => pieces.some((p) => p.kind !== 'heading');

    const emit = () => {
      if (pieces.length === 0) return;
      const text = pieces
        .map((p) => p.text)
        .join('\n')
        .trim();
      const lines = pieces.flatMap((p) => p.lines);
      if (text) {
        out.push({
          id: `${manualId}:p${page.page}:c${index++}`,
          manualId,
          page: page.page,
          heading,
          text,
          ocr: lines.some((l) => l.ocr),
          bboxes: lines.map((l) => l.bbox),
          tokens: estimateTokens(text),
        });
      }
      pieces = [];
    };

    /** Size split inside a section: carry the last lines over so a sentence is not cut blind. */
    const emitWithOverlap = (next: Piece) => {
      const prev = pieces.filter((p) => p.kind !== 'heading').at(-1);
      emit();
      heading = path();
      if (!prev || prev.kind === 'table' || next.kind === 'table') return;
      const tail: TextLine[] = [];
      for (let i = prev.lines.length - 1; i >= 0 && tail.length < 2; i--) {
        const candidate = piece(prev.kind, [prev.lines[i], ...tail]);
        if (candidate.tokens > opts.overlapTokens || candidate.tokens + next.tokens > opts.maxTokens) break;
        tail.unshift(prev.lines[i]);
      }
      if (tail.length) pieces.push(piece(prev.kind, tail));
    };

    for (const block of page.blocks) {
      if (block.kind === 'heading') {
        if (hasContent()) emit();
        const entry: StackEntry = {
          text: cleanHeading(block.text),
          fontSize: block.fontSize,
          bold: block.lines[0]?.bold ?? false,
          number: headingNumber(block.text),
        };
        const limit = this.titles.limit(page.page);
        if (!(limit !== undefined && entry.fontSize > limit)) {
          while (stack.length && !encloses(stack[stack.length - 1], entry)) stack.pop();
          stack.push(entry);
        }
        heading = path();
        pieces.push(piece('heading', block.lines));
        continue;
      }
      for (const part of splitBlock(block, opts.maxTokens)) {
        const combined = estimateTokens([...pieces.map((p) => p.text), part.text].join('\n'));
        if (combined <= opts.maxTokens || !hasContent()) {
          // A lone heading plus an oversized first part still belong together if they fit;
          // otherwise the heading goes out as a chunk of its own.
          if (combined > opts.maxTokens && pieces.length) emit();
          pieces.push(part);
        } else if (tokens() < opts.minTokens && part.kind !== 'table') {
          // Filling up to the minimum first keeps split chunks from ending tiny.
          const room = opts.maxTokens - tokens();
          const [head, ...rest] = splitLines(part.kind, part.lines, Math.max(1, room));
          if (head && estimateTokens([...pieces.map((p) => p.text), head.text].join('\n')) <= opts.maxTokens) {
            pieces.push(head);
            const remainder = rest.length
              ? piece(
                  part.kind,
                  rest.flatMap((r) => r.lines),
                )
              : undefined;
            if (remainder) {
              emitWithOverlap(remainder);
              pieces.push(remainder);
            }
          } else {
            emitWithOverlap(part);
            pieces.push(part);
          }
        } else {
          emitWithOverlap(part);
          pieces.push(part);
        }
      }
    }
    emit();
  }
}
