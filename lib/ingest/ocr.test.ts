import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intersect, area } from './geometry';
import type { TextLine } from './layout';
import { type OcrEngine, bundledEnglishModelDir, createTesseractEngine, defaultOcrWorkers } from './ocr';
import { normalizeLabel, ocrLinesToPage, planOcr, withOcrLines } from './ocr-page';
import { ocrPage } from './testing/pages';
import { type PageContent, openPdf } from './pdf';
import { encodePng, toPam } from './render';

const W = 500,
  H = 300;
const LINES = [
  { text: 'SERVICE MODE', x: 40, y: 220, size: 30 },
  { text: 'Error 1240 drive not ready', x: 40, y: 150, size: 22 },
];

/** A page with real text, and the same page as a flat image ("scanned"), for ground truth. */
async function textAndScan(): Promise<{ text: PageContent; scanBytes: Uint8Array }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([W, H]);
  for (const l of LINES) page.drawText(l.text, { x: l.x, y: l.y, size: l.size, font });
  const doc = await openPdf(await pdf.save());
  const text = await doc.extractPage(1);
  const img = await doc.renderPage(1, { scale: 3 });
  await doc.close();

  const scan = await PDFDocument.create();
  const scanPage = scan.addPage([W, H]);
  scanPage.drawImage(await scan.embedPng(img.png), { x: 0, y: 0, width: W, height: H });
  return { text, scanBytes: await scan.save() };
}

const iou = (a: TextLine['bbox'], b: TextLine['bbox']) => {
  const i = intersect(a, b);
  return i ? area(i) / (area(a) + area(b) - area(i)) : 0;
};

describe('tesseract engine (offline)', () => {
  let engine: OcrEngine;
  beforeAll(() => {
    engine = createTesseractEngine({ workers: 1 });
  });
  afterAll(() => engine?.terminate());

  it('uses the model bundled in @tesseract.js-data/eng and a pool of min(2, cores)', () => {
    expect(fs.existsSync(path.join(bundledEnglishModelDir(), 'eng.traineddata.gz'))).toBe(true);
    expect(defaultOcrWorkers()).toBe(Math.min(2, os.availableParallelism()));
    expect(createTesseractEngine().concurrency).toBe(defaultOcrWorkers());
  });

  it('reads a scanned page and maps word boxes back onto the page', async () => {
    const { text, scanBytes } = await textAndScan();
    const doc = await openPdf(scanBytes);
    try {
      const scan = await doc.extractPage(1);
      expect(scan.hasTextLayer).toBe(false);
      const targets = planOcr(scan);
      expect(targets).toEqual([{ bbox: { x: 0, y: 0, w: W, h: H }, scale: 3, mode: 'page' }]);

      const result = await ocrPage(doc, scan, engine);
      const lines = result.regions.flatMap((r) => r.lines);
      expect(lines.map((l) => l.text)).toEqual(LINES.map((l) => l.text));
      expect(lines.every((l) => l.ocr)).toBe(true);
      expect(result.confidence).toBeGreaterThan(80);
      // Same place as the text layer of the original page.
      for (const l of lines) {
        const truth = text.lines.find((t) => t.text === l.text)!;
        expect(iou(l.bbox, truth.bbox), l.text).toBeGreaterThan(0.6);
      }

      const merged = withOcrLines(scan, result.regions);
      expect(merged.text).toContain('Error 1240 drive not ready');
      expect(merged.blocks.every((b) => b.ocr && b.kind !== 'figure')).toBe(true);
    } finally {
      await doc.close();
    }
  });

  it('rejects an unreadable image with ocr_failed and keeps the worker usable', async () => {
    await expect(engine.recognize(Buffer.from('not an image'))).rejects.toMatchObject({ code: 'ocr_failed' });
    const { scanBytes } = await textAndScan();
    const doc = await openPdf(scanBytes);
    const img = await doc.renderRegion(1, { x: 30, y: 40, w: 260, h: 50 }, { scale: 3 });
    await doc.close();
    expect((await engine.recognize(img.png, { mode: 'block', dpi: 216 })).text).toContain('SERVICE MODE');
  });

  it('reads a PPM of raw pixels exactly as the PNG of the same pixels (what the pipeline sends)', async () => {
    const { scanBytes } = await textAndScan();
    const doc = await openPdf(scanBytes);
    const raw = await doc.renderRegionRaw(1, { x: 30, y: 40, w: 400, h: 140 }, { scale: 3 });
    await doc.close();
    const fromPpm = await engine.recognize(toPam(raw), { mode: 'sparse', dpi: 216 });
    const fromPng = await engine.recognize(await encodePng(raw), { mode: 'sparse', dpi: 216 });
    expect(fromPpm.text).toContain('Error 1240');
    expect(fromPpm.words.map((w) => [w.text, w.bbox])).toEqual(fromPng.words.map((w) => [w.text, w.bbox]));
  });

  it('fails queued work once terminated', async () => {
    const e = createTesseractEngine({ workers: 1 });
    await e.terminate();
    await expect(e.recognize(Buffer.alloc(0))).rejects.toThrow(/terminated/);
  });
});

describe('planning and mapping', () => {
  const base = { width: 600, height: 800 };

  it('OCRs nothing on a text page without images, image regions on a text page', () => {
    expect(planOcr({ ...base, hasTextLayer: true, images: [] })).toEqual([]);
    const targets = planOcr({
      ...base,
      hasTextLayer: true,
      images: [
        { bbox: { x: 50, y: 100, w: 400, h: 300 }, pixelWidth: 1100, pixelHeight: 825 }, // 2.75 px/pt
        { bbox: { x: 50, y: 500, w: 200, h: 100 }, pixelWidth: 1200, pixelHeight: 600 }, // 6 px/pt
      ],
    });
    expect(targets.map((t) => t.mode)).toEqual(['sparse', 'sparse']);
    expect(targets[0].scale).toBeCloseTo(4, 5); // 1.5 × 2.75 capped at 4
    expect(targets[1].scale).toBe(4);
    const big = planOcr(
      { ...base, hasTextLayer: true, images: [{ bbox: { x: 0, y: 0, w: 100, h: 100 }, pixelWidth: 0, pixelHeight: 0 }] },
      { minRegionAreaFraction: 0.05 },
    );
    expect(big).toEqual([]);
  });

  it('maps pixels of a region to page points and splits cells at wide gaps', () => {
    const word = (text: string, x: number, confidence = 95) => ({ text, confidence, bbox: { x, y: 40, w: 60, h: 20 } });
    const [line] = ocrLinesToPage(
      {
        lines: [
          {
            text: '',
            confidence: 90,
            bbox: { x: 0, y: 0, w: 0, h: 0 },
            words: [word('1240', 0), word('1368', 70), word('Write', 300), word('fault.', 370), word('~~', 440, 20)],
          },
        ],
      },
      { x: 100, y: 200, w: 300, h: 100 },
      2,
    );
    expect(line.text).toBe('1240 1368 Write fault.');
    expect(line.bbox).toEqual({ x: 100, y: 220, w: 215, h: 10 });
    expect(line.cells.map((c) => c.text)).toEqual(['1240 1368', 'Write fault.']);
    expect(line.ocr).toBe(true);
  });

  it('places figure text after the text above the figure', () => {
    const textLine = (text: string, y: number): TextLine => ({
      text,
      bbox: { x: 50, y, w: 300, h: 12 },
      fontSize: 10,
      bold: false,
      cells: [{ text, bbox: { x: 50, y, w: 300, h: 12 } }],
      ocr: false,
      column: 0,
    });
    const page = {
      page: 1,
      ...base,
      lines: [textLine('Above the figure, an introduction sentence.', 100), textLine('Below the figure, a closing sentence here.', 600)],
      blocks: [],
      headings: [],
      bodyFontSize: 10,
      images: [],
      hasTextLayer: true,
      textChars: 80,
      text: '',
      warnings: [],
    } satisfies PageContent;
    const label: TextLine = { ...textLine('PA8', 300), ocr: true, region: 0 };
    const merged = withOcrLines(page, [{ bbox: { x: 50, y: 200, w: 400, h: 350 }, lines: [label] }]);
    expect(merged.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['paragraph', 'Above the figure, an introduction sentence.'],
      ['figure', 'PA8'],
      ['paragraph', 'Below the figure, a closing sentence here.'],
    ]);
  });
});

describe('normalizeLabel', () => {
  it.each([
    ['PAS', 'PA5'],
    ['PAZ', 'PA7'],
    ['PAG', 'PA6'],
    ['PCO', 'PC0'],
    ['PB1O', 'PB10'],
    ['[PA4', '[PA4'],
    ['+5U', '+5V'],
    ['12U', '12V'],
    ['PA8', 'PA8'],
    ['PCB', 'PCB'],
    ['PASS', 'PASS'],
    ['PAD', 'PAD'],
    ['USB', 'USB'],
  ])('%s → %s', (input, output) => {
    expect(normalizeLabel(input)).toBe(output);
  });
});
