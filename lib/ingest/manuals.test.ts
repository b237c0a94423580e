/**
 * Integration over the real manuals in ../shared/manuals (read in place, never copied). Slow-ish
 * (~30–60 s on 2 cores, mostly OCR) but part of `vitest run`; skipped when the folder is absent.
 * Prints what it found (pages parsed, pin labels read, RSS) for the record; speed is measured by
 * `npm run bench`, not here.
 */
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_MANUALS_DIR, hasSharedManuals, sharedManual } from '../../test/shared-manuals';
import { type OcrEngine, createTesseractEngine } from './ocr';
import { planOcr, withOcrLines } from './ocr-page';
import { inkFraction, ocrPage } from './testing/pages';
import { type PageContent, type PdfDoc, openPdf } from './pdf';

const read = (file: string) => new Uint8Array(fs.readFileSync(sharedManual(file)));
const files = hasSharedManuals
  ? fs
      .readdirSync(SHARED_MANUALS_DIR)
      .filter((f) => f.endsWith('.pdf'))
      .sort()
  : [];
const figures: Record<string, string | number> = {};

describe.skipIf(!hasSharedManuals)('real manuals', () => {
  const extracted = new Map<string, PageContent[]>();

  beforeAll(async () => {
    // Parse every page of every manual once; the tests below look at the results.
    let pages = 0;
    for (const file of files) {
      const doc = await openPdf(read(file));
      const out: PageContent[] = [];
      for (let n = 1; n <= doc.numPages; n++) out.push(await doc.extractPage(n));
      pages += doc.numPages;
      extracted.set(file, out);
      await doc.close();
    }
    figures['pages parsed'] = pages;
  }, 180_000);

  afterAll(() => {
    figures['RSS MB at end'] = Math.round(process.memoryUsage().rss / 1e6);
    console.log('[ingest figures]', JSON.stringify(figures, null, 2));
  });

  it('finds all 9 manuals', () => {
    expect(files).toHaveLength(9);
  });

  it.each(files)('%s: page count equals the PDF page count (pdf-lib)', async (file) => {
    const independent = (await PDFDocument.load(read(file), { updateMetadata: false })).getPageCount();
    expect(extracted.get(file)!.length).toBe(independent);
    expect(extracted.get(file)!.map((p) => p.page)).toEqual(Array.from({ length: independent }, (_, i) => i + 1));
    expect(extracted.get(file)!.flatMap((p) => p.warnings)).toEqual([]);
  });

  it('renders a first page of every manual with ink on it', async () => {
    for (const file of files) {
      const doc = await openPdf(read(file));
      const img = await doc.renderPage(1);
      // A blank render has no ink at all; the sparsest real first page (DLC32 title) has ~0.4 %.
      expect(await inkFraction(img.png), file).toBeGreaterThan(0.001);
      await doc.close();
    }
  }, 60_000);

  it('extracts the MCU name from the NanoVNA schematic (page 12)', () => {
    expect(extracted.get('nanovna-h-user-guide.pdf')![11].text).toContain('STM32F072');
  });

  it('finds the pinout tables of the Pixhawk connector standard as tables', () => {
    const p6 = extracted.get('pixhawk-ds009-connector-standard.pdf')![5];
    const table = p6.blocks.find((b) => b.kind === 'table');
    expect(table?.text).toContain('TX (OUT)');
    expect(p6.headings.map((h) => h.text)).toContain('Telemetry Port');
  });

  it('sees that the Tek service notes have no text layer', () => {
    const tek = extracted.get('tek-4041-service-notes-1987.pdf')!;
    expect(tek.map((p) => p.hasTextLayer)).toEqual([false, false, false]);
    for (const p of tek) expect(planOcr(p)).toEqual([expect.objectContaining({ mode: 'page' })]);
  });

  it('detects the BTT pinout figures (pages 5–9) as large image regions on text pages', () => {
    const btt = extracted.get('btt-skr-mini-e3-v2-manual.pdf')!;
    for (const p of btt.slice(4, 9)) {
      expect(p.hasTextLayer, `page ${p.page}`).toBe(true);
      const largest = Math.max(...p.images.map((i) => i.bbox.w * i.bbox.h));
      expect(largest / (p.width * p.height), `page ${p.page}`).toBeGreaterThan(0.1);
      expect(planOcr(p).length).toBe(p.images.length);
    }
  });

  describe('OCR', () => {
    let engine: OcrEngine;
    let tek: PdfDoc, btt: PdfDoc;
    beforeAll(async () => {
      engine = createTesseractEngine();
      tek = await openPdf(read('tek-4041-service-notes-1987.pdf'));
      btt = await openPdf(read('btt-skr-mini-e3-v2-manual.pdf'));
    });
    afterAll(async () => {
      await engine?.terminate();
      await tek?.close();
      await btt?.close();
    });

    it('reads the Tek error-code tables and the BTT pinout labels', async () => {
      // Both at once: the pool has min(2, cores) workers.
      const tekPage = extracted.get('tek-4041-service-notes-1987.pdf')![0];
      const bttPage = extracted.get('btt-skr-mini-e3-v2-manual.pdf')![8];
      const [tekOcr, bttOcr] = await Promise.all([ocrPage(tek, tekPage, engine), ocrPage(btt, bttPage, engine)]);

      const tekText = withOcrLines(tekPage, tekOcr.regions).text;
      expect(tekText).toMatch(/Error/);
      expect(tekText).toMatch(/DISK DRIVE ERROR CODES/i);
      for (const code of ['1240 1368', '1243 1371', 'Write fault']) expect(tekText).toContain(code);
      expect(tekOcr.confidence).toBeGreaterThan(80);

      const merged = withOcrLines(bttPage, bttOcr.regions);
      const figure = merged.blocks
        .filter((b) => b.kind === 'figure')
        .map((b) => b.text)
        .join('\n');
      const pins = [...new Set(figure.match(/\bP[A-D]\d{1,2}\b/g) ?? [])].sort();
      figures['BTT p9 pin labels read'] = pins.join(' ');
      expect(pins.length).toBeGreaterThanOrEqual(4);
      for (const label of ['GND', 'Neopixel', 'MISO', 'SCK']) expect(figure).toContain(label);
      expect(merged.blocks.filter((b) => b.kind === 'figure').every((b) => b.ocr)).toBe(true);
    }, 120_000);
  });
});
