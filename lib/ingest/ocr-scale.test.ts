import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNativeTesseractEngine, findTesseract } from './ocr-native';
import type { OcrEngine } from './ocr';
import { planOcr } from './ocr-page';
import { MIN_PAGE_SCALE, TARGET_CAP_HEIGHT_PX, atReadingScale, measureCapHeight, readingScale } from './ocr-scale';
import { openPdf, type PdfDoc } from './pdf';
import { ocrPage } from './testing/pages';
import { type PdfLine, scannedLinesPdf } from './testing/lines-pdf';
import { wordF1 } from './testing/word-f1';

const TEXT = [
  'The quick brown fox jumps over the lazy dog',
  'Check the HX-200 fuse before you replace the board',
  'Pack my box with five dozen liquor jugs',
  'Sphinx of black quartz, judge my vow',
  'Connect the supply and wait until the lamp is steady',
];

/** Helvetica's capital height is 0.718 em. */
const CAP_EM = 0.718;
/** Print sizes (points) of the two generated scans: capitals of 17 and 26 px at 3×. */
const SMALL = 8;
const LARGE = 12;

/** Lines of `size`-point type down the page (no text layer). */
function linesOf(size: number): PdfLine[] {
  const lines: PdfLine[] = [];
  for (let i = 0; lines.length * size * 2.2 < 640; i++) lines.push([TEXT[i % TEXT.length], size, false]);
  return lines;
}

async function scannedPage(size: number): Promise<PdfDoc> {
  return openPdf(await scannedLinesPdf('HX-200 scan', [linesOf(size)]));
}

async function drawnForOcr(doc: PdfDoc) {
  const page = await doc.extractPage(1);
  const [target] = planOcr(page);
  expect(target.mode).toBe('page');
  return { page, target, raw: await doc.renderRegionRaw(1, target.bbox, { scale: target.scale }) };
}

describe('text height of a scanned page', () => {
  let small: PdfDoc;
  let large: PdfDoc;
  beforeAll(async () => {
    [small, large] = await Promise.all([scannedPage(SMALL), scannedPage(LARGE)]);
  });
  afterAll(async () => {
    await small?.close();
    await large?.close();
  });

  it('measures the capital height of the print, in pixels of the render', async () => {
    const a = await drawnForOcr(small);
    const b = await drawnForOcr(large);
    const capA = measureCapHeight(a.raw)!;
    const capB = measureCapHeight(b.raw)!;
    // Within a few pixels of Helvetica's capital height at 3× (17.2 px at 8 pt, 25.8 px at 12 pt).
    expect(Math.abs(capA - CAP_EM * SMALL * a.raw.scale)).toBeLessThanOrEqual(2);
    expect(Math.abs(capB - CAP_EM * LARGE * b.raw.scale)).toBeLessThanOrEqual(2);
  });

  it('reads small print at the planned scale and large print lower, never below the floor', async () => {
    const a = await drawnForOcr(small);
    const b = await drawnForOcr(large);
    expect(readingScale(a.raw.scale, measureCapHeight(a.raw))).toBe(a.target.scale);
    const scale = readingScale(b.raw.scale, measureCapHeight(b.raw));
    expect(scale).toBeLessThan(b.target.scale);
    expect(scale).toBeGreaterThanOrEqual(MIN_PAGE_SCALE);
    // The shrunk copy holds the print at about the target height, and says at what scale it is.
    const shrunk = await atReadingScale(b.raw);
    expect(shrunk.width).toBe(Math.round((b.raw.width * scale) / b.raw.scale));
    expect(shrunk.scale).toBeCloseTo(scale, 2);
    expect(Math.abs(measureCapHeight(shrunk)! - TARGET_CAP_HEIGHT_PX)).toBeLessThanOrEqual(2);
    // Small print stays as drawn: the same pixels, no copy.
    expect(await atReadingScale(a.raw)).toBe(a.raw);
  });

  it('keeps the planned scale for a page with too little text to measure, and never reads below the floor', () => {
    expect(readingScale(3, null)).toBe(3);
    expect(readingScale(3, 90)).toBe(MIN_PAGE_SCALE);
    const blank = { data: Buffer.alloc(600 * 800 * 4, 255), width: 600, height: 800 };
    expect(measureCapHeight(blank)).toBeNull();
  });
});

const binary = findTesseract();

describe.runIf(binary)('reading large print at the lower scale', () => {
  let engine: OcrEngine;
  beforeAll(() => {
    engine = createNativeTesseractEngine({ binary: binary!, workers: 2 });
  });
  afterAll(() => engine?.terminate());

  it('reads the same words as at the planned scale, with boxes on the page where the lines are', async () => {
    const doc = await scannedPage(LARGE);
    try {
      const page = await doc.extractPage(1);
      const r = await ocrPage(doc, page, engine);
      const [region] = r.regions;
      expect(region.scale).toBeLessThan(region.target.scale);
      const lines = region.lines;
      // Every line drawn is read, word for word.
      expect(
        wordF1(
          linesOf(LARGE)
            .map(([text]) => text)
            .join(' '),
          lines.map((l) => l.text).join(' '),
        ),
      ).toBeGreaterThanOrEqual(0.95);
      // Boxes map back to page points at the scale actually read: the first line's baseline is
      // 842 - 780 = 62 pt from the top, its capitals 8.6 pt above it (12 pt type).
      const first = lines[0].bbox;
      expect(first.x).toBeGreaterThan(50);
      expect(first.x).toBeLessThan(62);
      expect(first.y + first.h).toBeGreaterThan(58);
      expect(first.y + first.h).toBeLessThan(70);
      expect(first.y).toBeGreaterThan(50);
      expect(first.y).toBeLessThan(56);
      expect(lines[0].fontSize).toBeGreaterThan(9);
      expect(lines[0].fontSize).toBeLessThan(16);
    } finally {
      await doc.close();
    }
  }, 60_000);
});
