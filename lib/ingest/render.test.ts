import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSharedManuals, sharedManual } from '../../test/shared-manuals';
import { type PdfDoc, openPdf } from './pdf';
import { PAGE_SCALE, encodePageImages, encodePageImagesDownscaled, makeThumbnail, pageRenderSize, pamLayout, toPam } from './render';
import { inkFraction } from './testing/pages';
import { PAGE_H, PAGE_W, type SampleTruth, buildSampleManual } from './testing/sample-manual';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let doc: PdfDoc;
let truth: SampleTruth;
beforeAll(async () => {
  const sample = await buildSampleManual();
  truth = sample.truth;
  doc = await openPdf(sample.bytes);
});
afterAll(() => doc?.close());

describe('renderPage', () => {
  it('renders a page at 1.5× as a PNG with ink on it', async () => {
    const img = await doc.renderPage(1);
    expect(img.scale).toBe(PAGE_SCALE);
    expect([img.width, img.height]).toEqual([Math.round(PAGE_W * 1.5), Math.round(PAGE_H * 1.5)]);
    expect(img.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const meta = await sharp(img.png).metadata();
    expect([meta.width, meta.height]).toEqual([img.width, img.height]);
    expect(await inkFraction(img.png)).toBeGreaterThan(0.01);
  });

  it('lowers the scale to respect a pixel budget', async () => {
    const img = await doc.renderPage(1, { scale: 4, maxPixels: 200_000 });
    expect(img.scale).toBeLessThan(1);
    expect(img.width * img.height).toBeLessThanOrEqual(200_000 * 1.01);
  });

  it('renders a region at OCR scale, offset to the region', async () => {
    const { bbox } = truth.figure;
    const img = await doc.renderRegion(truth.figure.page, bbox, { scale: 2 });
    expect([img.width, img.height]).toEqual([bbox.w * 2, bbox.h * 2]);
    // The figure is a solid blue (30, 90, 160) image: the crop must be that image only.
    const stats = await sharp(img.png).stats();
    const [r, g, b] = stats.channels.map((c) => c.mean);
    expect(r).toBeCloseTo(30, -1);
    expect(g).toBeCloseTo(90, -1);
    expect(b).toBeCloseTo(160, -1);
  });

  it('rejects a region outside the page', async () => {
    await expect(doc.renderRegion(1, { x: 700, y: 0, w: 50, h: 50 })).rejects.toMatchObject({ code: 'render_failed' });
  });
});

describe('raw renders', () => {
  it('renderPageRaw gives the pixels renderPage encodes; encodePageImages makes the PNG and the thumbnail from them', async () => {
    const raw = await doc.renderPageRaw(1);
    expect([raw.width, raw.height, raw.scale]).toEqual([Math.round(PAGE_W * 1.5), Math.round(PAGE_H * 1.5), PAGE_SCALE]);
    expect(raw.data.length).toBe(raw.width * raw.height * 4);
    const { png, thumb } = await encodePageImages(raw);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const decoded = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([decoded.info.width, decoded.info.height, decoded.info.channels]).toEqual([raw.width, raw.height, 3]);
    // Lossless: the PNG holds exactly the rendered RGB.
    for (let i = 0; i < raw.width * raw.height; i += 997) {
      expect([decoded.data[3 * i], decoded.data[3 * i + 1], decoded.data[3 * i + 2]]).toEqual([raw.data[4 * i], raw.data[4 * i + 1], raw.data[4 * i + 2]]);
    }
    const meta = await sharp(thumb).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 240]);
    expect(await inkFraction(png)).toBeGreaterThan(0.01);
  });

  it('makes the preview of a sharper render at the preview size, and its thumbnail from that preview', async () => {
    const sharper = await doc.renderPageRaw(1, { scale: 3 });
    const size = pageRenderSize(PAGE_W, PAGE_H);
    const { png, thumb } = await encodePageImagesDownscaled(sharper, size);
    const preview = await sharp(png).metadata();
    expect([preview.format, preview.width, preview.height]).toEqual(['png', size.width, size.height]);
    const meta = await sharp(thumb).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 240]);
    expect(await inkFraction(png)).toBeGreaterThan(0.01);
  });

  it('keeps its pixels after the canvas is collected (a copy: sharp reads them on another thread later)', async () => {
    // canvas.data() is a view of the canvas's pixel memory, freed with the canvas: encoding such a
    // view after a GC crashed the process. Force collections and reuse of that memory.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const a = await doc.renderRegionRaw(truth.figure.page, truth.figure.bbox, { scale: 2 });
    const before = Buffer.from(a.data);
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
      const other = await doc.renderPageRaw(1, { scale: 0.5 });
      other.data.fill(7);
    }
    expect(a.data.equals(before)).toBe(true);
    expect((await encodePageImages(a)).png.length).toBeGreaterThan(0);
  });

  it('toPam puts the RGBA pixels behind a PAM header that pamLayout reads back', () => {
    const raw = { data: Buffer.from([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255]), width: 2, height: 2, scale: 1 };
    const pam = toPam(raw);
    const layout = pamLayout(pam)!;
    expect(layout).toMatchObject({ width: 2, height: 2 });
    expect(pam.subarray(0, layout.offset).toString('latin1')).toMatch(/^P7\n[\s\S]*TUPLTYPE RGB_ALPHA\nENDHDR\n$/);
    expect([...pam.subarray(layout.offset)]).toEqual([...raw.data]);
    expect(pamLayout(Buffer.from('P6\n2 2\n255\n'))).toBeNull();
  });
});

describe('makeThumbnail', () => {
  it('makes a 240 px wide WebP with the page aspect ratio', async () => {
    const img = await doc.renderPage(1);
    const webp = await makeThumbnail(img.png);
    const meta = await sharp(webp).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(240);
    expect(Math.abs(meta.height! - (240 * PAGE_H) / PAGE_W)).toBeLessThan(1);
    expect(webp.length).toBeLessThan(img.png.length);
    expect(await inkFraction(webp)).toBeGreaterThan(0.005);
  });
});

describe.skipIf(!hasSharedManuals)('rendering real manuals (pdfjs 5 legacy + @napi-rs/canvas)', () => {
  it.each([
    ['nanovna-h-user-guide.pdf', 2],
    ['pixhawk-ds009-connector-standard.pdf', 6],
    ['tek-4041-service-notes-1987.pdf', 1],
  ])('%s page %i is not blank', async (file, page) => {
    const real = await openPdf(new Uint8Array(fs.readFileSync(sharedManual(file))));
    try {
      const img = await real.renderPage(page);
      expect(await inkFraction(img.png)).toBeGreaterThan(0.01);
    } finally {
      await real.close();
    }
  });
});
