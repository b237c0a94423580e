import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from './errors';
import { type PageContent, type PdfDoc, openPdf } from './pdf';
import { inkFraction } from './testing/pages';
import { makeEncryptedPdf } from './testing/encrypted-pdf';
import { PAGE_H, PAGE_W, buildSampleManual, type SampleTruth } from './testing/sample-manual';

async function openError(bytes: Uint8Array, opts?: Parameters<typeof openPdf>[1]): Promise<IngestError> {
  try {
    const doc = await openPdf(bytes, opts);
    await doc.close();
  } catch (err) {
    expect(err).toBeInstanceOf(IngestError);
    return err as IngestError;
  }
  throw new Error('expected openPdf to fail');
}

/** Deterministic pseudo-random bytes (xorshift), so a failure is reproducible. */
function randomBytes(n: number, seed = 42): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

let sample: { bytes: Uint8Array; truth: SampleTruth };
beforeAll(async () => {
  sample = await buildSampleManual();
});

describe('validation by content', () => {
  it('rejects a zero-byte file as empty', async () => {
    const err = await openError(new Uint8Array(0));
    expect(err.code).toBe('empty');
    expect(err.message).toMatch(/empty/i);
  });

  it('rejects a PNG named .pdf and says it is a PNG image', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const err = await openError(new Uint8Array(png));
    expect(err.code).toBe('not_pdf');
    expect(err.message).toContain('PNG image');
  });

  it('rejects random bytes and an HTML page as not_pdf', async () => {
    expect((await openError(randomBytes(4096))).code).toBe('not_pdf');
    const html = await openError(new TextEncoder().encode('<!DOCTYPE html><html><body>Download failed</body></html>'));
    expect(html.code).toBe('not_pdf');
    expect(html.message).toContain('web page');
  });

  it('accepts a PDF header preceded by junk within the first 1024 bytes', async () => {
    const junk = new TextEncoder().encode('X'.repeat(300));
    const doc = await openPdf(new Uint8Array([...junk, ...sample.bytes]));
    expect(doc.numPages).toBe(sample.truth.pages);
    await doc.close();
  });

  it('rejects a truncated PDF and a PDF header followed by garbage as corrupt', async () => {
    const truncated = sample.bytes.slice(0, Math.floor(sample.bytes.length / 2));
    expect((await openError(truncated)).code).toBe('corrupt');
    const fake = new Uint8Array([...new TextEncoder().encode('%PDF-1.7\n'), ...randomBytes(5000, 7)]);
    const err = await openError(fake);
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/damaged|incomplete/);
  });

  it('enforces the byte limit before parsing', async () => {
    const err = await openError(sample.bytes, { maxBytes: 1000 });
    expect(err.code).toBe('too_large');
    expect(err.detail).toContain(`${sample.bytes.length} > 1000`);
  });

  it('enforces the page limit, from options or from MAX_PAGES', async () => {
    const err = await openError(sample.bytes, { maxPages: 2 });
    expect(err.code).toBe('too_many_pages');
    expect(err.message).toContain(`${sample.truth.pages} pages`);
    const before = process.env.MAX_PAGES;
    process.env.MAX_PAGES = '3';
    try {
      expect((await openError(sample.bytes)).code).toBe('too_many_pages');
    } finally {
      if (before === undefined) delete process.env.MAX_PAGES;
      else process.env.MAX_PAGES = before;
    }
  });

  describe('password-protected (RC4 40-bit standard security handler)', () => {
    const bytes = makeEncryptedPdf({ userPassword: 'secret', text: 'Secret service procedure' });

    it('asks for the password when none is given', async () => {
      const err = await openError(bytes);
      expect(err.code).toBe('password_required');
      expect(err.retryable).toBe(true);
    });

    it('reports a wrong password', async () => {
      const err = await openError(bytes, { password: 'guess' });
      expect(err.code).toBe('password_incorrect');
    });

    it('opens with the right password and extracts the decrypted text', async () => {
      const doc = await openPdf(bytes, { password: 'secret' });
      expect(doc.numPages).toBe(1);
      const page = await doc.extractPage(1);
      expect(page.text).toContain('Secret service procedure');
      await doc.close();
    });
  });
});

describe('extraction against generated ground truth', () => {
  let doc: PdfDoc;
  const pages: PageContent[] = [];
  beforeAll(async () => {
    doc = await openPdf(sample.bytes);
    for (let n = 1; n <= doc.numPages; n++) pages.push(await doc.extractPage(n));
  });
  afterAll(() => doc?.close());

  it('reports the page count and page size', async () => {
    const independent = (await PDFDocument.load(sample.bytes)).getPageCount();
    expect(doc.numPages).toBe(independent);
    expect(doc.numPages).toBe(sample.truth.pages);
    expect(await doc.pageSize(1)).toEqual({ width: PAGE_W, height: PAGE_H });
    expect(pages[0]).toMatchObject({ page: 1, width: PAGE_W, height: PAGE_H });
    expect(pages.flatMap((p) => p.warnings)).toEqual([]);
  });

  it('places every drawn line with a top-left bbox around its baseline', () => {
    for (const drawn of sample.truth.lines) {
      const page = pages[drawn.page - 1];
      // Paragraphs may end in identical short lines: take the same text nearest the baseline.
      const cell = page.lines
        .flatMap((l) => l.cells)
        .filter((c) => c.text === drawn.text)
        .sort((a, b) => Math.abs(a.bbox.y - drawn.baseline) - Math.abs(b.bbox.y - drawn.baseline))[0];
      expect(cell, `line "${drawn.text}" on page ${drawn.page}`).toBeDefined();
      const b = cell!.bbox;
      expect(b.x).toBeCloseTo(drawn.x, 0);
      expect(Math.abs(b.w - drawn.width), `width of "${drawn.text}"`).toBeLessThan(0.5);
      // Baseline inside the box: ascent above it, descent below it (y grows downwards).
      expect(drawn.baseline - b.y).toBeGreaterThan(0.6 * drawn.size);
      expect(drawn.baseline - b.y, `ascent of "${drawn.text}"`).toBeLessThan(1.05 * drawn.size);
      expect(b.y + b.h - drawn.baseline).toBeGreaterThan(0.05 * drawn.size);
      expect(b.y + b.h - drawn.baseline).toBeLessThan(0.4 * drawn.size);
    }
  });

  it('reports font sizes and bold faces', () => {
    const line = (text: string) => pages.flatMap((p) => p.lines).find((l) => l.text === text)!;
    expect(line('1 Specifications')).toMatchObject({ fontSize: 20, bold: true });
    const body = sample.truth.lines.find((l) => l.kind === 'body')!;
    expect(line(body.text)).toMatchObject({ fontSize: 11, bold: false });
  });

  it('finds the headings with levels by size', () => {
    expect(pages[0].headings.map((h) => [h.text, h.level])).toEqual([
      ['1 Specifications', 1],
      ['1.1 Electrical', 2],
      ['1.2 Mechanical', 2],
    ]);
    expect(pages[0].bodyFontSize).toBe(11);
  });

  it('keeps the table together as one block with its cells', () => {
    const tables = pages[0].blocks.filter((b) => b.kind === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0].text.split('\n')).toEqual(sample.truth.table.rows.map((r) => r.join(' | ')));
  });

  it('reads a two-column page column by column', () => {
    const page = pages[sample.truth.twoColumnPage - 1];
    const order = page.lines.map((l) => l.text).filter((t) => /column line/.test(t));
    const left = sample.truth.lines.filter((l) => l.kind === 'column-left').map((l) => l.text);
    const right = sample.truth.lines.filter((l) => l.kind === 'column-right').map((l) => l.text);
    expect(order).toEqual([...left, ...right]);
    expect(page.lines.find((l) => l.text === left[0])!.column).toBe(1);
    expect(page.lines.find((l) => l.text === right[0])!.column).toBe(2);
    // The full-width heading comes first (after the running header at the very top).
    expect(page.lines.map((l) => l.text).slice(0, 2)).toEqual(['ACME PX-200 Service Manual', '3 Wiring']);
  });

  it('lists raster images with their page boxes', () => {
    const fig = sample.truth.figure;
    const page = pages[fig.page - 1];
    expect(page.images).toHaveLength(1);
    const b = page.images[0].bbox;
    expect(b.x).toBeCloseTo(fig.bbox.x, 1);
    expect(b.y).toBeCloseTo(fig.bbox.y, 1);
    expect(b.w).toBeCloseTo(fig.bbox.w, 1);
    expect(b.h).toBeCloseTo(fig.bbox.h, 1);
    expect(page.images[0]).toMatchObject({ pixelWidth: 200, pixelHeight: 120 });
    expect(pages[0].images).toEqual([]);
    expect(pages[0].hasTextLayer).toBe(true);
  });

  it('flags the image-only page as having no text layer', () => {
    const scan = pages[sample.truth.scannedPage - 1];
    expect(scan.hasTextLayer).toBe(false);
    expect(scan.textChars).toBe(0);
    expect(scan.lines).toEqual([]);
    // OCR reads such a page whole: its image regions are not looked for, so its scan is decoded
    // once (when drawn for the engine) instead of a second time for the operator list.
    expect(scan.images).toEqual([]);
  });
});

describe('long documents', () => {
  it('reads the same pages after pdf.js was reopened (past 200 visited pages)', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 230; n++) pdf.addPage([300, 200]).drawText(`HX-200 service page ${n}`, { x: 20, y: 150, size: 12, font });
    const doc = await openPdf(await pdf.save());
    try {
      const first = await doc.extractPage(1);
      for (let n = 2; n <= 220; n++) await doc.extractPage(n);
      await doc.cleanup(); // 220 pages visited: the document is opened anew
      expect(doc.numPages).toBe(230);
      expect(await doc.extractPage(1)).toEqual(first);
      expect((await doc.extractPage(230)).text).toBe('HX-200 service page 230');
      expect((await doc.renderPageRaw(225, { scale: 1 })).width).toBe(300);
    } finally {
      await doc.close();
    }
  });
});

describe('coordinates on rotated and cropped pages', () => {
  /** Share of dark pixels inside `bbox` of a page rendered at `scale`. */
  async function inkIn(doc: PdfDoc, n: number, bbox: { x: number; y: number; w: number; h: number }) {
    const scale = 2;
    const img = await doc.renderPage(n, { scale });
    const region = await sharp(img.png)
      .extract({ left: Math.floor(bbox.x * scale), top: Math.floor(bbox.y * scale), width: Math.ceil(bbox.w * scale), height: Math.ceil(bbox.h * scale) })
      .png()
      .toBuffer();
    return { inside: await inkFraction(region), page: await inkFraction(img.png) };
  }

  it.each([0, 90, 180, 270])('boxes land on the rendered glyphs with /Rotate %i', async (rotation) => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.HelveticaBold);
    const page = pdf.addPage([400, 300]);
    page.drawText('ROTATED LABEL', { x: 60, y: 200, size: 24, font });
    page.setRotation(degrees(rotation));
    const doc = await openPdf(await pdf.save());
    const content = await doc.extractPage(1);
    const swapped = rotation % 180 !== 0;
    expect([content.width, content.height]).toEqual(swapped ? [300, 400] : [400, 300]);
    expect(content.lines).toHaveLength(1);
    const { inside, page: whole } = await inkIn(doc, 1, content.lines[0].bbox);
    // All the ink on the page is the label, so its box must be much denser than the page.
    expect(inside).toBeGreaterThan(0.15);
    expect(inside).toBeGreaterThan(whole * 10);
    await doc.close();
  });

  it('accounts for a crop box offset', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([600, 800]);
    page.drawText('Inside the crop', { x: 150, y: 500, size: 20, font });
    page.setCropBox(100, 300, 300, 300);
    const doc = await openPdf(await pdf.save());
    const content = await doc.extractPage(1);
    expect([content.width, content.height]).toEqual([300, 300]);
    const b = content.lines[0].bbox;
    expect(b.x).toBeCloseTo(50, 0);
    // baseline at y = 500 in PDF space → 300 + 300 - 500 = 100 from the crop box top
    expect(b.y).toBeLessThan(100);
    expect(b.y + b.h).toBeGreaterThan(100);
    const { inside } = await inkIn(doc, 1, b);
    expect(inside).toBeGreaterThan(0.1);
    await doc.close();
  });
});

const SPEEDYBEE = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'manuals2', 'speedybee-f405-v4-stack-manual.pdf');

describe.runIf(fs.existsSync(SPEEDYBEE))('a real manual whose ToUnicode map has its bytes swapped', () => {
  it('reads "Specifications", not "Speci昀椀cations"', async () => {
    const doc = await openPdf(new Uint8Array(fs.readFileSync(SPEEDYBEE)), { maxBytes: Infinity });
    try {
      let text = '';
      for (let p = 1; p <= doc.numPages; p++) text += `${(await doc.extractPage(p)).text}\n`;
      expect(text).toMatch(/Specifications/);
      // No Latin word is left with a U+XX00 stand-in for one of its letters.
      expect(
        text
          .match(/[A-Za-z][\u4100-\u5a00\u6100-\u7a00]|[\u4100-\u5a00\u6100-\u7a00][A-Za-z]/gu)
          ?.filter((m) => [...m].some((c) => (c.charCodeAt(0) & 0xff) === 0)) ?? [],
      ).toEqual([]);
    } finally {
      await doc.close();
    }
  });
});
