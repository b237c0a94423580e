/**
 * Test helper: a small manual generated with pdf-lib, with exact ground truth for every line drawn
 * (text, page, baseline, width, heading path), a table, a two-column page, a raster figure at a
 * known place, running header/footer, and an image-only "scanned" page.
 */
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { BBox } from '../geometry';

export const PAGE_W = 595;
export const PAGE_H = 842;
export const HEADER = 'ACME PX-200 Service Manual';

export interface DrawnLine {
  page: number;
  text: string;
  /** Left edge and baseline in top-left page coordinates; width from the font metrics. */
  x: number;
  baseline: number;
  width: number;
  size: number;
  /** Heading path in force for this line ('' for running header/footer). */
  path: string;
  kind: 'heading' | 'body' | 'table' | 'running' | 'column-left' | 'column-right';
}

export interface SampleTruth {
  pages: number;
  lines: DrawnLine[];
  headings: Array<{ page: number; text: string; path: string; size: number }>;
  table: { page: number; rows: string[][] };
  figure: { page: number; bbox: BBox };
  scannedPage: number;
  twoColumnPage: number;
}

const TOPICS = ['supply rail', 'fan header', 'thermistor input', 'stepper driver', 'endstop switch', 'heater cartridge', 'probe connector', 'fuse holder'];
const VERBS = ['confirms', 'verifies', 'records', 'measures', 'checks', 'documents'];

/** Deterministic filler sentences; `tag` makes each section's words distinguishable. */
function sentences(tag: string, count: number, seed = 1): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const t = TOPICS[(i * 3 + seed) % TOPICS.length];
    const v = VERBS[(i + seed) % VERBS.length];
    out.push(`The ${tag} step ${i + 1} ${v} that the ${t} stays within its rated limits before the unit returns to service.`);
  }
  return out.join(' ');
}

/**
 * Drawn width: pdf-lib's widthOfTextAtSize subtracts kerning, but drawText does not kern, so
 * sum the glyphs one by one.
 */
export const drawnWidth = (font: PDFFont, text: string, size: number) => [...text].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0);

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    const next = cur ? `${cur} ${word}` : word;
    if (cur && font.widthOfTextAtSize(next, size) > width) {
      lines.push(cur);
      cur = word;
    } else cur = next;
  }
  if (cur) lines.push(cur);
  return lines;
}

export async function buildSampleManual(): Promise<{ bytes: Uint8Array; truth: SampleTruth }> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const lines: DrawnLine[] = [];
  const headings: SampleTruth['headings'] = [];
  const path: string[] = [];
  let page!: PDFPage;
  let pageNo = 0;
  let top = 0; // top-left y of the next line's baseline

  const draw = (text: string, o: { x?: number; size: number; font: PDFFont; kind: DrawnLine['kind']; baseline?: number }) => {
    const x = o.x ?? 50;
    const baseline = o.baseline ?? top;
    page.drawText(text, { x, y: PAGE_H - baseline, size: o.size, font: o.font, color: rgb(0, 0, 0) });
    lines.push({
      page: pageNo,
      text,
      x,
      baseline,
      width: drawnWidth(o.font, text, o.size),
      size: o.size,
      path: o.kind === 'running' ? '' : path.join(' > '),
      kind: o.kind,
    });
  };
  const newPage = () => {
    page = doc.addPage([PAGE_W, PAGE_H]);
    pageNo++;
    draw(HEADER, { size: 9, font: regular, kind: 'running', baseline: 30 });
    draw(`Page ${pageNo}`, { size: 9, font: regular, kind: 'running', baseline: 815, x: 280 });
    top = 80;
  };
  const heading = (text: string, level: 1 | 2) => {
    const size = level === 1 ? 20 : 14;
    path.length = level - 1;
    path.push(text);
    top += level === 1 ? 10 : 8;
    draw(text, { size, font: bold, kind: 'heading' });
    headings.push({ page: pageNo, text, path: path.join(' > '), size });
    top += size + 8;
  };
  const paragraph = (text: string) => {
    for (const l of wrap(text, regular, 11, 490)) {
      draw(l, { size: 11, font: regular, kind: 'body' });
      top += 14;
    }
    top += 10;
  };

  // Page 1: specifications with a table
  newPage();
  heading('1 Specifications', 1);
  paragraph(sentences('overview', 3, 1));
  heading('1.1 Electrical', 2);
  paragraph(sentences('electrical', 4, 2));
  const rows = [
    ['Parameter', 'Value', 'Unit'],
    ['Input voltage', '12 to 24', 'V DC'],
    ['Logic voltage', '3.3', 'V'],
    ['Max current', '2.5', 'A'],
    ['Standby power', '0.8', 'W'],
  ];
  for (const row of rows) {
    row.forEach((cell, i) => draw(cell, { x: [50, 230, 380][i], size: 10, font: i === 0 && row === rows[0] ? bold : regular, kind: 'table' }));
    top += 16;
  }
  top += 10;
  heading('1.2 Mechanical', 2);
  paragraph(sentences('mechanical', 3, 3));

  // Page 2: one long section that must be split into several chunks
  newPage();
  heading('2 Troubleshooting', 1);
  heading('2.1 Error codes', 2);
  for (let p = 0; p < 6; p++) paragraph(sentences(`fault${p}`, 4, p));

  // Page 3: full-width heading, two columns with aligned baselines, then a raster figure
  newPage();
  heading('3 Wiring', 1);
  const colTop = top;
  for (let i = 0; i < 8; i++) {
    draw(`Left column line ${i + 1} explains harness routing`, { x: 50, size: 10, font: regular, kind: 'column-left', baseline: colTop + i * 14 });
    draw(`Right column line ${i + 1} lists connector pins`, { x: 315, size: 10, font: regular, kind: 'column-right', baseline: colTop + i * 14 });
  }
  const figure: BBox = { x: 150, y: 500, w: 240, h: 144 };
  const png = await sharp({ create: { width: 200, height: 120, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  page.drawImage(await doc.embedPng(png), { x: figure.x, y: PAGE_H - figure.y - figure.h, width: figure.w, height: figure.h });

  // Page 4: a "scan": one full-page image and no text at all
  page = doc.addPage([PAGE_W, PAGE_H]);
  pageNo++;
  const scan = await sharp({ create: { width: 300, height: 424, channels: 3, background: { r: 235, g: 235, b: 228 } } })
    .png()
    .toBuffer();
  page.drawImage(await doc.embedPng(scan), { x: 0, y: 0, width: PAGE_W, height: PAGE_H });

  const bytes = await doc.save();
  return { bytes, truth: { pages: pageNo, lines, headings, table: { page: 1, rows }, figure: { page: 3, bbox: figure }, scannedPage: 4, twoColumnPage: 3 } };
}
