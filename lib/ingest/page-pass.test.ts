/**
 * The pipelined page pass (parse → OCR + previews): OCR overlaps parsing, a figure repeated on
 * several pages is recognised once, text the text layer already has is masked out of the OCR
 * input, and failures surface in the right stage without stray writes or unhandled rejections.
 */
import fs from 'node:fs';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { OcrEngine, OcrOptions, OcrResult } from './ocr';
import { PagePass } from './page-pass';
import { pageImagePath, pageThumbPath } from './paths';
import { openPdf } from './pdf';
import { pamLayout } from './render';

const W = 400,
  H = 500;
const FIG = { x: 50, y: 100, w: 300, h: 200 }; // top-left page coordinates
const CAPTION = { text: 'Vector caption over the figure', x: 60, size: 12, baselineFromTop: 130 };

/** Pages with the same raster figure; `captioned` pages also get a text-layer line drawn over it. */
async function figurePdf(pages: number, opts: { captioned?: boolean; distinct?: boolean } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    // A grey gradient with a dark bar; `distinct` shifts the bar per page so the pixels differ.
    const px = Buffer.alloc(300 * 200 * 3);
    for (let y = 0; y < 200; y++)
      for (let x = 0; x < 300; x++) px.fill(opts.distinct && y > 150 && x < 40 * n ? 0 : 120 + (x % 100), (y * 300 + x) * 3, (y * 300 + x + 1) * 3);
    const png = await sharp(px, { raw: { width: 300, height: 200, channels: 3 } })
      .png()
      .toBuffer();
    const page = pdf.addPage([W, H]);
    page.drawText(`Page ${n} body text long enough to count as a text layer.`, { x: 40, y: H - 50, size: 10, font });
    page.drawImage(await pdf.embedPng(png), { x: FIG.x, y: H - FIG.y - FIG.h, width: FIG.w, height: FIG.h });
    if (opts.captioned) page.drawText(CAPTION.text, { x: CAPTION.x, y: H - CAPTION.baselineFromTop, size: CAPTION.size, font, color: rgb(0, 0, 0) });
  }
  return pdf.save();
}

/** One scanned page: a full-page raster with dark bars, no text layer. */
async function scannedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const px = Buffer.alloc(W * H * 3, 235);
  for (let y = 40; y < H - 40; y += 24)
    for (let x = 30; x < W - 30; x++) for (let k = 0; k < 8; k++) px.fill(20 + (x % 50), ((y + k) * W + x) * 3, ((y + k) * W + x + 1) * 3);
  const png = await sharp(px, { raw: { width: W, height: H, channels: 3 } })
    .png()
    .toBuffer();
  pdf.addPage([W, H]).drawImage(await pdf.embedPng(png), { x: 0, y: 0, width: W, height: H });
  return pdf.save();
}

interface Call {
  image: Buffer;
  opts: OcrOptions;
  /** Pages the pass had finished parsing when this recognition started. */
  parsedBefore: number;
}

/**
 * An engine that answers one word and records what it was given. With `hold`, recognitions wait
 * until the test calls release(): work stays in flight exactly as long as the test says, however
 * fast the machine.
 */
function fakeEngine(state: { parsed: number }, opts: { failOnCall?: number; hold?: boolean } = {}) {
  const calls: Call[] = [];
  let holding = opts.hold ?? false;
  const held: Array<() => void> = [];
  const release = () => {
    holding = false;
    for (const go of held.splice(0)) go();
  };
  const engine: OcrEngine = {
    id: 'fake',
    engine: 'tesseract.js',
    languages: ['eng'],
    concurrency: 1,
    async recognize(image, o = {}) {
      calls.push({ image, opts: o, parsedBefore: state.parsed });
      const n = calls.length;
      if (holding) await new Promise<void>((go) => held.push(go));
      if (n === opts.failOnCall) throw new Error('engine exploded');
      const word = { text: 'PA8', bbox: { x: 10, y: 10, w: 60, h: 30 }, confidence: 95 };
      return {
        text: 'PA8',
        words: [word],
        lines: [{ text: 'PA8', bbox: word.bbox, confidence: 95, words: [word] }],
        confidence: 95,
        ms: 1,
      } satisfies OcrResult;
    },
    async terminate() {},
  };
  return { engine, calls, release };
}

/** Reads the PAM the engine was sent back as { width, height, rgba }. */
function readPam(buf: Buffer) {
  const layout = pamLayout(buf)!;
  return { width: layout.width, height: layout.height, rgba: buf.subarray(layout.offset) };
}

async function runPass(
  bytes: Uint8Array,
  engine: OcrEngine,
  state: { parsed: number; searchable?: number[] },
  manualId: string,
  opts: { figuresDuringPass?: boolean } = {},
) {
  const doc = await openPdf(bytes);
  const pass = new PagePass(doc, { manualId, ocr: () => engine, ...opts });
  const ticks: Record<string, number[]> = { parsing: [], ocr: [], rendering: [] };
  try {
    const parsed = await pass.parse(async (n) => {
      state.parsed = n;
      state.searchable?.push(pass.searchableThrough);
      ticks.parsing.push(n);
    });
    const pages = await pass.ocr(async (n) => void ticks.ocr.push(n));
    await pass.images(async (n) => void ticks.rendering.push(n));
    return { parsed, pages, pass, ticks };
  } finally {
    await pass.settle();
    await doc.close();
  }
}

describe('PagePass', () => {
  it('makes every text page searchable as it is read, and reads figure labels in a pass after', async () => {
    const state = { parsed: 0, searchable: [] as number[] };
    const { engine, calls } = fakeEngine(state);
    const { pages, pass, ticks } = await runPass(await figurePdf(4, { distinct: true }), engine, state, 'pass-figures-after');
    // Each page's text was ready when it was read, before any figure reached the engine.
    expect(state.searchable).toEqual([1, 2, 3, 4]);
    expect(calls.map((c) => c.parsedBefore)).toEqual([4, 4, 4, 4]);
    // The text pass hands out the text layer only; the figure labels are merged by the ocr stage.
    expect(pass.textPages(1, 4).some((p) => p.text.includes('PA8'))).toBe(false);
    expect(pages.every((p) => p.text.includes('PA8'))).toBe(true);
    expect(pass.ocrTotal).toBe(4);
    expect(ticks.ocr.at(-1)).toBe(4);
  });

  it('makes a scanned page searchable only once its recognition ends', async () => {
    const state = { parsed: 0, searchable: [] as number[] };
    const { engine, release } = fakeEngine(state, { hold: true });
    const running = runPass(await scannedPdf(), engine, state, 'pass-scanned-searchable');
    const { pages, pass } = await (async () => {
      await vi.waitFor(() => expect(state.parsed).toBe(1), { timeout: 30_000 });
      release();
      return running;
    })();
    expect(state.searchable).toEqual([0]);
    expect(pass.searchableThrough).toBe(1);
    expect(pass.textPages(1, 1)[0].text).toBe(pages[0].text);
    expect(pages[0].text).toContain('PA8');
  });

  it('starts OCR while later pages are still being parsed and writes every page image', async () => {
    const state = { parsed: 0 };
    const { engine, calls, release } = fakeEngine(state, { hold: true });
    const running = runPass(await figurePdf(4, { distinct: true }), engine, state, 'pass-pipelined', { figuresDuringPass: true });
    // No recognition finishes until released, yet three figures reach the engine: OCR started
    // while parsing went on (then parsing waits for a worker before queueing a fourth).
    await vi.waitFor(() => expect(calls).toHaveLength(3), { timeout: 30_000 });
    expect(state.parsed).toBeLessThan(4);
    release();
    const { pages, pass, ticks } = await running;
    expect(calls).toHaveLength(4);
    expect(calls[0].parsedBefore).toBeLessThan(4);
    expect(calls.every((c) => c.opts.mode === 'sparse' && (c.opts.dpi ?? 0) >= 216)).toBe(true);
    expect(pass.ocrTotal).toBe(4);
    // Figures of text pages go to OCR, but no page of them is a scanned page.
    expect(pass.scannedTotal).toBe(0);
    expect([...pass.ocrFlags].sort()).toEqual([1, 2, 3, 4]);
    expect(pages.every((p) => p.text.includes('PA8'))).toBe(true);
    expect(ticks.parsing).toEqual([1, 2, 3, 4]);
    expect(ticks.ocr.at(-1)).toBe(4);
    expect(ticks.rendering.at(-1)).toBe(4);
    for (let n = 1; n <= 4; n++) {
      const meta = await sharp(fs.readFileSync(pageImagePath('pass-pipelined', n))).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', W * 1.5, H * 1.5]);
      expect((await sharp(fs.readFileSync(pageThumbPath('pass-pipelined', n))).metadata()).format).toBe('webp');
    }
  });

  it('recognises a figure repeated on several pages once', async () => {
    const state = { parsed: 0 };
    const { engine, calls, release } = fakeEngine(state, { hold: true });
    const running = runPass(await figurePdf(3), engine, state, 'pass-repeated');
    // Every page is parsed while the first recognition is still in flight: the repeats share it.
    await vi.waitFor(() => expect(state.parsed).toBe(3), { timeout: 30_000 });
    expect(calls).toHaveLength(1);
    release();
    const { pass } = await running;
    expect(calls).toHaveLength(1);
    expect([...pass.ocrFlags].sort()).toEqual([1, 2, 3]);
    expect(pass.ocrTexts.get(3)).toBe('PA8');
  });

  it('masks text the text layer already has out of the OCR input', async () => {
    const state = { parsed: 0 };
    const { engine, calls } = fakeEngine(state);
    const { parsed } = await runPass(await figurePdf(1, { captioned: true }), engine, state, 'pass-masked');
    const caption = parsed[0].lines.find((l) => l.text === CAPTION.text)!;
    expect(caption).toBeDefined();
    const img = readPam(calls[0].image);
    const scale = img.width / FIG.w;
    // Every pixel under the caption's box is white; the figure around it is not.
    const at = (x: number, y: number) => img.rgba[(Math.round((y - FIG.y) * scale) * img.width + Math.round((x - FIG.x) * scale)) * 4];
    const b = caption.bbox;
    for (let x = b.x + 1; x < b.x + b.w - 1; x += 3) for (let y = b.y + 1; y < b.y + b.h - 1; y += 2) expect(at(x, y)).toBe(255);
    expect(at(FIG.x + 20, FIG.y + 100)).toBeLessThan(250);
  });

  it("makes a scanned page's preview from its OCR render instead of drawing the page a second time", async () => {
    const state = { parsed: 0 };
    const { engine, calls } = fakeEngine(state);
    const bytes = await scannedPdf();
    const doc = await openPdf(bytes);
    let previewDraws = 0;
    const renderPageRaw = doc.renderPageRaw.bind(doc);
    doc.renderPageRaw = (...args) => (previewDraws++, renderPageRaw(...args));
    const pass = new PagePass(doc, { manualId: 'pass-scanned', ocr: () => engine });
    try {
      await pass.parse(async () => {});
      await pass.ocr(async () => {});
      await pass.images(async () => {});
    } finally {
      await pass.settle();
      await doc.close();
    }
    expect(calls.map((c) => c.opts.mode)).toEqual(['page']);
    // Read whole by OCR: a scanned page, counted as such.
    expect(pass.scannedTotal).toBe(1);
    expect(previewDraws).toBe(0);
    // The same size and, within resampling, the same pixels as pdf.js drawing the preview itself.
    const written = await sharp(fs.readFileSync(pageImagePath('pass-scanned', 1)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([written.info.width, written.info.height]).toEqual([W * 1.5, H * 1.5]);
    const direct = await openPdf(bytes);
    const drawn = await direct.renderPageRaw(1, { scale: 1.5 });
    await direct.close();
    let diff = 0;
    for (let i = 0; i < drawn.width * drawn.height; i++) diff += Math.abs(written.data[3 * i] - drawn.data[4 * i]);
    expect(diff / (drawn.width * drawn.height)).toBeLessThan(12);
    expect((await sharp(fs.readFileSync(pageThumbPath('pass-scanned', 1))).metadata()).width).toBe(240);
  });

  it('fails the ocr stage with the engine error; settle() waits for the rest and nothing is left unhandled', async () => {
    const state = { parsed: 0 };
    const { engine, calls } = fakeEngine(state, { failOnCall: 2 });
    const doc = await openPdf(await figurePdf(3, { distinct: true }));
    const pass = new PagePass(doc, { manualId: 'pass-failing', ocr: () => engine });
    try {
      await pass.parse(async () => {});
      await expect(pass.ocr(async () => {})).rejects.toThrow('engine exploded');
    } finally {
      await pass.settle();
      await doc.close();
    }
    expect(calls).toHaveLength(3);
  });
});
