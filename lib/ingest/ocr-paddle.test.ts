import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { registerFont } from '../sample/raster';
import type { BBox } from './geometry';
import { type OcrEngine, createTesseractEngine } from './ocr';
import { describeOcrEngine } from './ocr-engine';
import { planOcr } from './ocr-page';
import { ocrPage } from './testing/pages';
import { PADDLE_MODEL_ID, TILE, TILE_OVERLAP, createPaddleEngine, tilesOf, wordsOfBox } from './ocr-paddle';
import { openPdf } from './pdf';

/** Pin cells of a board pinout: white names on green boxes, the kind tesseract segments poorly. */
const PINS = ['PA8', 'PB14', 'PC13', 'GND', 'PB7', '+5V', 'PA15', 'PC11'];
const CELL = { w: 150, h: 56, gap: 24, x0: 40, y0: 40 };
const IMAGE = { width: 2 * CELL.x0 + 4 * CELL.w + 3 * CELL.gap, height: 2 * CELL.y0 + 2 * CELL.h + CELL.gap };

function cellOf(i: number): BBox {
  const col = i % 4;
  const row = Math.floor(i / 4);
  return { x: CELL.x0 + col * (CELL.w + CELL.gap), y: CELL.y0 + row * (CELL.h + CELL.gap), w: CELL.w, h: CELL.h };
}

async function pinoutPng(): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const family = await registerFont();
  const canvas = createCanvas(IMAGE.width, IMAGE.height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, IMAGE.width, IMAGE.height);
  g.font = `bold 30px ${family}`;
  g.textBaseline = 'middle';
  g.textAlign = 'center';
  PINS.forEach((pin, i) => {
    const c = cellOf(i);
    g.fillStyle = '#1f8a3b';
    g.fillRect(c.x, c.y, c.w, c.h);
    g.fillStyle = '#ffffff';
    g.fillText(pin, c.x + c.w / 2, c.y + c.h / 2 + 1);
  });
  return canvas.toBuffer('image/png');
}

const centre = (b: BBox) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
const inside = (p: { x: number; y: number }, b: BBox) => p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;

describe('choosing the figure engine', () => {
  it('reads figures with the page engine unless OCR_FIGURE_ENGINE=paddle, and says which', () => {
    expect(loadConfig({}).ocr.figureEngine).toBe('page');
    expect(loadConfig({ OCR_FIGURE_ENGINE: 'Paddle' }).ocr.figureEngine).toBe('paddle');
    expect(() => loadConfig({ OCR_FIGURE_ENGINE: 'easyocr' })).toThrow(/OCR_FIGURE_ENGINE.*page, paddle/);
    const page = describeOcrEngine({ engine: 'tesseract.js', languages: ['eng'] });
    expect(page.figures).toBe('page');
    expect(page.detail).not.toMatch(/Paddle/);
    const paddle = describeOcrEngine({ engine: 'tesseract.js', figureEngine: 'paddle', languages: ['eng'] });
    expect(paddle.figures).toBe('paddleocr');
    expect(paddle.detail).toMatch(/figure labels: PaddleOCR/);
  });
});

describe('detection tiles', () => {
  it('cover the image, and their own parts cover it exactly once', () => {
    for (const [w, h] of [
      [500, 300],
      [TILE, TILE],
      [2500, 1100],
      [1786, 2526],
    ]) {
      const tiles = tilesOf(w, h);
      const area = tiles.reduce((s, t) => s + t.core.w * t.core.h, 0);
      expect(area).toBe(w * h);
      for (const t of tiles) {
        expect(t.x + t.w <= w && t.y + t.h <= h && t.w <= TILE && t.h <= TILE).toBe(true);
        // The own part lies inside the tile, so a box there was seen whole when it is smaller than half the overlap.
        expect(t.core.x >= t.x && t.core.x + t.core.w <= t.x + t.w && t.core.y >= t.y && t.core.y + t.core.h <= t.y + t.h).toBe(true);
      }
    }
  });
});

describe('PaddleOCR figure engine', () => {
  let paddle: OcrEngine;
  let png: Buffer;
  beforeAll(async () => {
    paddle = createPaddleEngine({ threads: 1 });
    png = await pinoutPng();
  });
  afterAll(() => paddle?.terminate());

  it('reads boxed pin labels, each with a box inside its own cell', async () => {
    const result = await paddle.recognize(png, { mode: 'sparse' });
    const found = new Map(result.words.map((w) => [w.text, w]));
    const read = PINS.filter((p) => found.has(p));
    expect(read.length).toBeGreaterThanOrEqual(6);
    for (const pin of read) expect(inside(centre(found.get(pin)!.bbox), cellOf(PINS.indexOf(pin)))).toBe(true);
    expect(result.confidence).toBeGreaterThan(50);
  });

  it('reads an image wider than a tile once: a label across two tiles is kept by one of them', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const family = await registerFont();
    const width = 2 * TILE + 300;
    const canvas = createCanvas(width, 200);
    const g = canvas.getContext('2d');
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, width, 200);
    g.fillStyle = '#000000';
    g.font = `bold 40px ${family}`;
    g.textBaseline = 'middle';
    g.textAlign = 'center';
    // One label in each tile's own part, one in the first overlap, one at the far right edge.
    const labels = [
      { text: 'PB14', x: 300 },
      { text: 'PC13', x: TILE - TILE_OVERLAP / 2 },
      { text: 'PA15', x: TILE + 500 },
      { text: 'PC11', x: width - 150 },
    ];
    for (const l of labels) g.fillText(l.text, l.x, 100);
    const result = await paddle.recognize(canvas.toBuffer('image/png'), { mode: 'sparse' });
    expect(tilesOf(width, 200).length).toBe(3);
    for (const l of labels) {
      const hits = result.words.filter((w) => w.text === l.text);
      expect(hits, l.text).toHaveLength(1);
      expect(Math.abs(centre(hits[0].bbox).x - l.x)).toBeLessThan(60);
    }
  });

  it('splits a box into words by their share of its characters', () => {
    const words = wordsOfBox('GND PA8', { x: 0, y: 10, w: 70, h: 20 }, 90);
    expect(words.map((w) => [w.text, w.bbox.x, w.bbox.w])).toEqual([
      ['GND', 0, 30],
      ['PA8', 40, 30],
    ]);
  });

  it('reads the figure region of a text page into the page, beside its text layer', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText('EXP1 header pinout', { x: 60, y: 780, size: 16, font });
    const image = await pdf.embedPng(png);
    page.drawImage(image, { x: 60, y: 500, width: IMAGE.width / 2.5, height: IMAGE.height / 2.5 });
    const doc = await openPdf(await pdf.save());
    const tesseract = createTesseractEngine({ workers: 1 });
    try {
      const content = await doc.extractPage(1);
      expect(planOcr(content).map((t) => t.mode)).toEqual(['sparse']);
      const result = await ocrPage(doc, content, tesseract, { figureEngine: paddle });
      expect(result.regions.map((r) => r.engine)).toEqual([PADDLE_MODEL_ID]);
      const text = result.regions.flatMap((r) => r.lines.map((l) => l.text)).join(' ');
      expect(PINS.filter((p) => text.split(/\s+/).includes(p)).length).toBeGreaterThanOrEqual(6);
      // Page coordinates: every label lies inside the drawn image (y down from the top).
      const imageBox = { x: 60, y: 842 - 500 - IMAGE.height / 2.5, w: IMAGE.width / 2.5, h: IMAGE.height / 2.5 };
      for (const line of result.regions.flatMap((r) => r.lines)) expect(inside(centre(line.bbox), imageBox)).toBe(true);
    } finally {
      await tesseract.terminate();
      await doc.close();
    }
  });

  it('falls back to the page engine when the figure engine fails, so the page keeps its labels', async () => {
    const broken = createPaddleEngine();
    await broken.terminate(); // a terminated engine rejects every image: a real failure, not a stand-in
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    page.drawText('Wiring', { x: 60, y: 780, size: 16, font: await pdf.embedFont(StandardFonts.Helvetica) });
    page.drawImage(await pdf.embedPng(png), { x: 60, y: 400, width: IMAGE.width / 2, height: IMAGE.height / 2 });
    const doc = await openPdf(await pdf.save());
    const tesseract = createTesseractEngine({ workers: 1 });
    try {
      const result = await ocrPage(doc, await doc.extractPage(1), tesseract, { figureEngine: broken });
      expect(result.regions.map((r) => r.engine)).toEqual([tesseract.id]);
      expect(result.words).toBeGreaterThan(0);
    } finally {
      await tesseract.terminate();
      await doc.close();
    }
  });
});
