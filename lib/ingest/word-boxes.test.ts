import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { findValue } from '@/lib/answer/value-boxes';
import { type DrawnLine, type SampleTruth, buildSampleManual, drawnWidth } from './testing/sample-manual';
import { locateValues } from './word-boxes';

let pdf: Uint8Array;
let truth: SampleTruth;
let helvetica: Awaited<ReturnType<PDFDocument['embedFont']>>;

beforeAll(async () => {
  ({ bytes: pdf, truth } = await buildSampleManual());
  helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
});

/** A drawn line's box (top-left page coordinates), as a chunk stores it. */
const lineBox = (l: DrawnLine) => ({ x: l.x, y: l.baseline - 0.8 * l.size, w: l.width, h: l.size });

/** Where the generator drew `word` (its only whole-word occurrence) in the line, from the font's own metrics. */
function drawnAt(l: DrawnLine, word: string) {
  const [[start, end]] = findValue(l.text, word);
  const x0 = l.x + drawnWidth(helvetica, l.text.slice(0, start), l.size);
  return { x0, x1: x0 + drawnWidth(helvetica, l.text.slice(start, end), l.size), start, end };
}

describe('locateValues (the sample manual drawn with pdf-lib, read back with pdf.js)', () => {
  it('places every word of the body text within a fifth of a point of where it was drawn', async () => {
    const lines = truth.lines.filter((l) => l.page === 1 && l.kind === 'body');
    const targets = lines.flatMap((l) =>
      [...new Set(l.text.split(' '))]
        .map((w) => w.replace(/[.,]$/, ''))
        .filter((w) => w && findValue(l.text, w).length === 1)
        .map((word) => ({ line: l, word })),
    );
    expect(targets.length).toBeGreaterThan(40);
    const boxes = await locateValues(
      pdf,
      1,
      targets.map((t) => ({ value: t.word, near: lineBox(t.line) })),
    );
    let worstExact = 0;
    let worstShare = 0;
    targets.forEach((t, i) => {
      const want = drawnAt(t.line, t.word);
      const got = boxes[i]!;
      expect(got, t.word).not.toBeNull();
      worstExact = Math.max(worstExact, Math.abs(got.x - want.x0), Math.abs(got.x + got.w - want.x1));
      // What the share of characters alone would give (the estimate before the PDF is read).
      const share = t.line.x + (t.line.width * want.start) / t.line.text.length;
      worstShare = Math.max(worstShare, Math.abs(share - want.x0));
      expect(got.y).toBeLessThan(t.line.baseline);
      expect(got.y + got.h).toBeGreaterThan(t.line.baseline);
    });
    expect(worstExact).toBeLessThan(0.2);
    expect(worstShare).toBeGreaterThan(2); // the glyph widths are what make it exact
  });

  it('finds a value in its table cell on the row, nearest the estimate', async () => {
    const cell = truth.lines.find((l) => l.page === 1 && l.kind === 'table' && l.text === '3.3')!;
    const row = truth.lines.filter((l) => l.page === 1 && l.kind === 'table' && l.baseline === cell.baseline);
    const rowBox = { x: row[0].x, y: cell.baseline - 8, w: row.at(-1)!.x + row.at(-1)!.width - row[0].x, h: 10 };
    const [box] = await locateValues(pdf, 1, [{ value: '3.3', near: rowBox }]);
    expect(box!.x).toBeCloseTo(cell.x, 1);
    expect(box!.w).toBeCloseTo(drawnWidth(helvetica, '3.3', cell.size), 1);
  });

  it('has nothing to say about a scanned page or a value the line lacks', async () => {
    const near = { x: 50, y: 100, w: 400, h: 12 };
    expect(await locateValues(pdf, truth.scannedPage, [{ value: 'step', near }])).toEqual([null]);
    const body = truth.lines.find((l) => l.page === 1 && l.kind === 'body')!;
    expect(await locateValues(pdf, 1, [{ value: '9.99 kV', near: lineBox(body) }])).toEqual([null]);
  });
});
