/**
 * A tiny flow-layout toolkit over pdf-lib for the sample manual: headings, wrapped paragraphs,
 * notices, numbered steps and ruled tables. It throws instead of silently overflowing a page, so a
 * content edit that no longer fits fails the tests rather than producing a clipped manual.
 */
import { PDFFont, PDFPage, rgb, StandardFonts, type Color, type PDFDocument } from 'pdf-lib';

export const PAGE = { width: 595.28, height: 841.89 } as const; // A4 in points
export const MARGIN = { left: 56, right: 56, top: 72, bottom: 70 } as const;
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;

export const INK = rgb(0.12, 0.12, 0.14);
export const MUTED = rgb(0.42, 0.44, 0.48);
export const BRAND = rgb(0.05, 0.27, 0.52);
const RULE = rgb(0.35, 0.37, 0.4);
const TABLE_HEAD = rgb(0.87, 0.9, 0.94);
export const WHITE = rgb(1, 1, 1);

// Body 10 pt, headings 17 / 12.5 pt: a parser can tell sections apart by font size alone.
export const SIZE = { body: 10, small: 8, table: 8.8, h1: 17, h2: 12.5 } as const;

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  mono: PDFFont;
}

/** The four standard PDF fonts a generated manual writes with, embedded in `doc`. */
export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  return {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
}

const UNIT = /^(V|A|DC|mA|bar|°C|%|Nm|mm|mm²|ms|s|kg|ohm|Hz|baud|m|minutes|months|years)[,.;:)]*$/;

/** Splits on spaces but keeps a value with its unit ("0.5 mm²", "24 V DC") on one line. */
function tokens(paragraph: string): string[] {
  const out: string[] = [];
  for (const word of paragraph.split(/ +/)) {
    const prev = out[out.length - 1];
    if (prev !== undefined && UNIT.test(word) && (/\d$/.test(prev) || (word.startsWith('DC') && / V$/.test(prev)))) out[out.length - 1] = `${prev} ${word}`;
    else out.push(word);
  }
  return out;
}

/** Greedy word wrap; words wider than the line are left on their own line (none exist in our copy). */
function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of tokens(paragraph)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(candidate, size) > maxWidth) {
        lines.push(line);
        line = word;
      } else {
        line = candidate;
      }
    }
    lines.push(line);
  }
  return lines;
}

export interface Column {
  header: string;
  /** Width in points; the last column takes whatever is left of the content width. */
  width?: number;
  bold?: boolean;
  mono?: boolean;
}

export class PageWriter {
  /** Baseline cursor, moving down the page. */
  y: number;

  constructor(
    readonly page: PDFPage,
    readonly fonts: Fonts,
    top = PAGE.height - MARGIN.top,
  ) {
    this.y = top;
  }

  /** Reserves vertical space or throws: silent overflow would draw over the footer. */
  need(height: number, what: string): void {
    if (this.y - height < MARGIN.bottom) {
      throw new Error(`Sample manual layout overflow on "${what}": needs ${height.toFixed(0)} pt, ${(this.y - MARGIN.bottom).toFixed(0)} pt left`);
    }
  }

  space(points: number): void {
    this.y -= points;
  }

  text(x: number, y: number, str: string, size: number, font: PDFFont = this.fonts.regular, color: Color = INK): void {
    this.page.drawText(str, { x, y, size, font, color });
  }

  h1(title: string): void {
    this.need(SIZE.h1 + 18, title);
    this.y -= SIZE.h1;
    this.text(MARGIN.left, this.y, title, SIZE.h1, this.fonts.bold, BRAND);
    this.y -= 7;
    this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: PAGE.width - MARGIN.right, y: this.y }, thickness: 1.2, color: BRAND });
    this.y -= 14;
  }

  h2(title: string): void {
    this.need(SIZE.h2 + 30, title);
    this.y -= 6 + SIZE.h2;
    this.text(MARGIN.left, this.y, title, SIZE.h2, this.fonts.bold, INK);
    this.y -= 9;
  }

  paragraph(body: string, opts: { size?: number; font?: PDFFont; color?: Color; indent?: number; after?: number } = {}): void {
    const size = opts.size ?? SIZE.body;
    const font = opts.font ?? this.fonts.regular;
    const indent = opts.indent ?? 0;
    const leading = size * 1.38;
    const lines = wrapText(body, font, size, CONTENT_WIDTH - indent);
    this.need(lines.length * leading, body.slice(0, 40));
    for (const line of lines) {
      this.y -= leading;
      this.text(MARGIN.left + indent, this.y + leading - size, line, size, font, opts.color ?? INK);
    }
    this.y -= opts.after ?? 6;
  }

  /** Numbered steps with a hanging indent, as service procedures are printed. */
  steps(items: string[], start = 1): void {
    const size = SIZE.body;
    const leading = size * 1.38;
    const indent = 20;
    items.forEach((item, i) => {
      const lines = wrapText(item, this.fonts.regular, size, CONTENT_WIDTH - indent);
      this.need(lines.length * leading + 4, item.slice(0, 40));
      const top = this.y;
      this.text(MARGIN.left, top - size, `${start + i}.`, size, this.fonts.bold, BRAND);
      lines.forEach((line, j) => this.text(MARGIN.left + indent, top - size - j * leading, line, size));
      this.y = top - lines.length * leading - 4;
    });
    this.y -= 4;
  }

  bullets(items: string[]): void {
    const size = SIZE.body;
    const leading = size * 1.38;
    const indent = 14;
    for (const item of items) {
      const lines = wrapText(item, this.fonts.regular, size, CONTENT_WIDTH - indent);
      this.need(lines.length * leading + 2, item.slice(0, 40));
      const top = this.y;
      this.page.drawCircle({ x: MARGIN.left + 4, y: top - size + 3.2, size: 1.8, color: INK });
      lines.forEach((line, j) => this.text(MARGIN.left + indent, top - size - j * leading, line, size));
      this.y = top - lines.length * leading - 2;
    }
    this.y -= 4;
  }

  /** Safety notice: coloured signal-word cell on the left, wrapped message on the right. */
  notice(signal: 'DANGER' | 'WARNING' | 'CAUTION' | 'NOTE', message: string): void {
    const palette = {
      DANGER: { fill: rgb(0.78, 0.1, 0.1), text: WHITE },
      WARNING: { fill: rgb(0.95, 0.5, 0.05), text: INK },
      CAUTION: { fill: rgb(0.98, 0.82, 0.1), text: INK },
      NOTE: { fill: rgb(0.2, 0.4, 0.7), text: WHITE },
    }[signal];
    const labelW = 74;
    const pad = 7;
    const size = 9.5;
    const leading = size * 1.35;
    const lines = wrapText(message, this.fonts.regular, size, CONTENT_WIDTH - labelW - 2 * pad - 4);
    const h = Math.max(lines.length * leading + 2 * pad, 30);
    this.need(h + 8, signal);
    const top = this.y;
    const x = MARGIN.left;
    this.page.drawRectangle({ x, y: top - h, width: CONTENT_WIDTH, height: h, color: rgb(0.975, 0.975, 0.97), borderColor: palette.fill, borderWidth: 1.2 });
    this.page.drawRectangle({ x, y: top - h, width: labelW, height: h, color: palette.fill });
    // Warning triangle before the signal word, drawn as vectors (no glyph needed).
    const ty = top - h / 2;
    // drawSvgPath flips y: negative SVG y points up the page.
    this.page.drawSvgPath('M 0 0 L 5.5 -10 L 11 0 Z', { x: x + 7, y: ty - 5, color: palette.text });
    this.page.drawText('!', { x: x + 11.2, y: ty - 4, size: 7, font: this.fonts.bold, color: palette.fill });
    this.text(x + 22, ty - 3.2, signal, 8.5, this.fonts.bold, palette.text);
    lines.forEach((line, j) => this.text(x + labelW + pad, top - pad - size + 1 - j * leading, line, size));
    this.y = top - h - 8;
  }

  /** A ruled table: header row shaded, every cell boxed, text wrapped inside its column. */
  table(columns: Column[], rows: string[][], opts: { size?: number; caption?: string; header?: boolean } = {}): void {
    const size = opts.size ?? SIZE.table;
    const leading = size * 1.32;
    const padX = 5;
    const padY = 4.2;
    const fixed = columns.slice(0, -1).reduce((sum, c) => sum + (c.width ?? 0), 0);
    const widths = columns.map((c, i) => (i === columns.length - 1 ? CONTENT_WIDTH - fixed : (c.width ?? 0)));
    const fontFor = (c: Column, header: boolean) => (header || c.bold ? this.fonts.bold : c.mono ? this.fonts.mono : this.fonts.regular);
    const layoutRow = (cells: string[], header: boolean) => {
      // 3 pt slack: viewers substitute Helvetica with fonts of slightly different widths.
      const wrapped = cells.map((cell, i) => wrapText(cell, fontFor(columns[i], header), size, widths[i] - 2 * padX - 3));
      return { wrapped, height: Math.max(...wrapped.map((l) => l.length)) * leading + 2 * padY };
    };
    const withHeader = opts.header ?? true;
    const laid = [
      ...(withHeader
        ? [
            layoutRow(
              columns.map((c) => c.header),
              true,
            ),
          ]
        : []),
      ...rows.map((r) => layoutRow(r, false)),
    ];
    const total = laid.reduce((s, r) => s + r.height, 0);
    const captionH = opts.caption ? 16 : 0;
    this.need(total + captionH + 10, opts.caption ?? columns[0].header);

    if (opts.caption) {
      this.y -= 10;
      this.text(MARGIN.left, this.y, opts.caption, 9, this.fonts.bold, INK);
      this.y -= 6;
    }
    const top = this.y;
    const left = MARGIN.left;
    let y = top;
    laid.forEach((row, r) => {
      const isHeader = withHeader && r === 0;
      if (isHeader) this.page.drawRectangle({ x: left, y: y - row.height, width: CONTENT_WIDTH, height: row.height, color: TABLE_HEAD });
      let x = left;
      row.wrapped.forEach((lines, i) => {
        const font = fontFor(columns[i], isHeader);
        lines.forEach((line, j) => this.text(x + padX, y - padY - size + 1.2 - j * leading, line, size, font));
        x += widths[i];
      });
      y -= row.height;
      // Row rule; the rule under the header is heavier, as in printed manuals.
      this.page.drawLine({ start: { x: left, y }, end: { x: left + CONTENT_WIDTH, y }, thickness: isHeader ? 1 : 0.5, color: RULE });
    });
    // Column rules span the whole table so they line up exactly with the row rules.
    let x = left;
    for (const w of widths.slice(0, -1)) {
      x += w;
      this.page.drawLine({ start: { x, y: top }, end: { x, y }, thickness: 0.5, color: RULE });
    }
    this.page.drawRectangle({ x: left, y, width: CONTENT_WIDTH, height: top - y, borderColor: INK, borderWidth: 1 });
    this.y = y - 10;
  }
}

/** Running header (not on the cover) and footer with the page number on every page. */
export function drawPageFrame(page: PDFPage, fonts: Fonts, n: number, total: number, header: { left: string; right: string } | null, footerLeft: string): void {
  const { width } = PAGE;
  if (header) {
    const y = PAGE.height - 44;
    page.drawText(header.left, { x: MARGIN.left, y, size: SIZE.small, font: fonts.bold, color: MUTED });
    const rw = fonts.regular.widthOfTextAtSize(header.right, SIZE.small);
    page.drawText(header.right, { x: width - MARGIN.right - rw, y, size: SIZE.small, font: fonts.regular, color: MUTED });
    page.drawLine({ start: { x: MARGIN.left, y: y - 6 }, end: { x: width - MARGIN.right, y: y - 6 }, thickness: 0.5, color: MUTED });
  }
  const fy = 40;
  page.drawLine({ start: { x: MARGIN.left, y: fy + 12 }, end: { x: width - MARGIN.right, y: fy + 12 }, thickness: 0.5, color: MUTED });
  page.drawText(footerLeft, { x: MARGIN.left, y: fy, size: SIZE.small, font: fonts.regular, color: MUTED });
  const label = `Page ${n} of ${total}`;
  const w = fonts.bold.widthOfTextAtSize(label, SIZE.small);
  page.drawText(label, { x: width - MARGIN.right - w, y: fy, size: SIZE.small, font: fonts.bold, color: MUTED });
}
