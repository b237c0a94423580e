import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSharedManuals, sharedManual } from '@/test/shared-manuals';
import { createTesseractEngine, type OcrEngine } from './ocr';
import { describeOcrEngine } from './ocr-engine';
import { createNativeTesseractEngine, findTesseract, parseTsv, splitTsvPages } from './ocr-native';
import { planOcr } from './ocr-page';
import { ocrPage } from './testing/pages';
import { openPdf } from './pdf';
import { toPam } from './render';
import { wordF1 } from './testing/word-f1';

const binary = findTesseract();

describe('finding the binary', () => {
  it('looks only at executables on PATH', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-tess-'));
    fs.writeFileSync(path.join(dir, 'tesseract'), '#!/bin/sh\n', { mode: 0o644 });
    expect(findTesseract('tesseract', dir)).toBeNull();
    fs.chmodSync(path.join(dir, 'tesseract'), 0o755);
    expect(findTesseract('tesseract', dir)).toBe(path.join(dir, 'tesseract'));
    expect(findTesseract('tesseract', '')).toBeNull();
  });

  it('falls back to tesseract.js when asked, and refuses OCR_ENGINE=tesseract without a binary', () => {
    expect(describeOcrEngine({ engine: 'tesseract.js', languages: ['eng'] }).provider).toBe('tesseract.js');
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      expect(describeOcrEngine({ engine: 'auto', languages: ['eng', 'ces'] })).toMatchObject({
        provider: 'tesseract.js',
        languages: ['eng'],
        missing: ['ces'],
      });
      expect(() => describeOcrEngine({ engine: 'tesseract', languages: ['eng'] })).toThrow(/install tesseract-ocr/);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('parsing TSV', () => {
  // Real tesseract 5 output (columns: level page block par line word left top width height conf text).
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t1500\t900\t-1\t',
    '2\t1\t1\t0\t0\t0\t120\t650\t884\t91\t-1\t',
    '3\t1\t1\t1\t0\t0\t120\t650\t884\t91\t-1\t',
    '4\t1\t1\t1\t1\t0\t120\t650\t884\t91\t-1\t',
    '5\t1\t1\t1\t1\t1\t120\t650\t354\t91\t96.47\tSERVICE',
    '5\t1\t1\t1\t1\t2\t508\t650\t496\t91\t96.02\tMODE',
    '2\t1\t2\t0\t0\t0\t120\t300\t1000\t70\t-1\t',
    '3\t1\t2\t1\t0\t0\t120\t300\t1000\t70\t-1\t',
    '4\t1\t2\t1\t1\t0\t120\t300\t1000\t70\t-1\t',
    '5\t1\t2\t1\t1\t1\t120\t300\t200\t70\t91.5\tError',
    '5\t1\t2\t1\t1\t2\t340\t300\t180\t70\t-1\t ',
    '5\t1\t2\t1\t1\t3\t540\t300\t180\t70\t88.0\t1240',
  ].join('\n');

  it('groups words into lines with their boxes and confidences', () => {
    const r = parseTsv(tsv, 12);
    expect(r.lines.map((l) => l.text)).toEqual(['SERVICE MODE', 'Error 1240']);
    expect(r.lines[0].bbox).toEqual({ x: 120, y: 650, w: 884, h: 91 });
    expect(r.words[2]).toEqual({ text: 'Error', bbox: { x: 120, y: 300, w: 200, h: 70 }, confidence: 91.5 });
    expect(r.text).toBe('SERVICE MODE\n\nError 1240');
    expect(r.confidence).toBeCloseTo((96.47 + 96.02 + 91.5 + 88) / 4, 5);
    expect(r.ms).toBe(12);
    expect(parseTsv('').words).toEqual([]);
  });
});

describe('a multi-image TSV', () => {
  it('is cut into one TSV per image by page number, an image without words keeping its page row', () => {
    const rows = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t10\t30\t20\t95\tGPIO4',
      '1\t2\t0\t0\t0\t0\t0\t0\t80\t40\t-1\t',
      '1\t3\t0\t0\t0\t0\t0\t0\t80\t40\t-1\t',
      '5\t3\t1\t1\t1\t1\t5\t5\t20\t10\t90\t+5V',
    ].join('\n');
    const pages = splitTsvPages(rows, 3);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => parseTsv(p).text)).toEqual(['GPIO4', '', '+5V']);
  });
});

describe.runIf(binary)('native tesseract engine', () => {
  let engine: OcrEngine;
  beforeAll(() => {
    engine = createNativeTesseractEngine({ binary: binary!, workers: 2 });
  });
  afterAll(() => engine?.terminate());

  async function scan(): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([500, 300]);
    page.drawText('SERVICE MODE', { x: 40, y: 220, size: 30, font });
    page.drawText('Error 1240 drive not ready', { x: 40, y: 150, size: 22, font });
    const doc = await openPdf(await pdf.save());
    const img = await doc.renderPage(1, { scale: 3 });
    await doc.close();
    const out = await PDFDocument.create();
    out.addPage([500, 300]).drawImage(await out.embedPng(img.png), { x: 0, y: 0, width: 500, height: 300 });
    return out.save();
  }

  it('reads a scanned page through the same page mapping as tesseract.js', async () => {
    const doc = await openPdf(await scan());
    try {
      const page = await doc.extractPage(1);
      const r = await ocrPage(doc, page, engine);
      expect(r.regions.flatMap((x) => x.lines).map((l) => l.text)).toEqual(['SERVICE MODE', 'Error 1240 drive not ready']);
      expect(r.confidence).toBeGreaterThan(80);
      expect(engine.id).toMatch(/^tesseract-\d/);
      expect(engine.engine).toBe('tesseract');
    } finally {
      await doc.close();
    }
  });

  it('rejects an unreadable image with ocr_failed and keeps working', async () => {
    await expect(engine.recognize(Buffer.from('not an image'))).rejects.toMatchObject({ code: 'ocr_failed' });
    const doc = await openPdf(await scan());
    const raw = await doc.renderRegionRaw(1, { x: 30, y: 40, w: 400, h: 140 }, { scale: 3 });
    await doc.close();
    expect((await engine.recognize(toPam(raw), { mode: 'block', dpi: 216 })).text).toContain('Error 1240');
  });

  it('reads small images queued together in one process with the same words as one by one', async () => {
    const doc = await openPdf(await scan());
    const regions = [
      { x: 30, y: 40, w: 400, h: 60 },
      { x: 30, y: 110, w: 400, h: 60 },
      { x: 30, y: 40, w: 200, h: 60 },
    ];
    const images = [];
    for (const r of regions) images.push(toPam(await doc.renderRegionRaw(1, r, { scale: 3 })));
    await doc.close();
    const one = createNativeTesseractEngine({ binary: binary!, workers: 1 });
    try {
      const alone = [];
      for (const image of images) alone.push((await one.recognize(image, { mode: 'sparse', dpi: 216 })).words);
      // Queued at once behind one process: the first takes all three.
      const together = await Promise.all(images.map((image) => one.recognize(image, { mode: 'sparse', dpi: 216 })));
      expect(together.map((r) => r.words)).toEqual(alone);
      expect(alone[0].map((w) => w.text).join(' ')).toContain('SERVICE');
    } finally {
      await one.terminate();
    }
  });

  it('reads the others of a batch when one of its images is damaged', async () => {
    const doc = await openPdf(await scan());
    const good = toPam(await doc.renderRegionRaw(1, { x: 30, y: 40, w: 400, h: 140 }, { scale: 3 }));
    await doc.close();
    const one = createNativeTesseractEngine({ binary: binary!, workers: 1 });
    try {
      const damaged = good.subarray(0, 2000);
      const [a, b, c] = await Promise.allSettled([good, damaged, good].map((image) => one.recognize(image, { mode: 'sparse', dpi: 216 })));
      expect(a.status === 'fulfilled' && a.value.text).toContain('1240');
      expect(b).toMatchObject({ status: 'rejected', reason: { code: 'ocr_failed' } });
      expect(c.status === 'fulfilled' && c.value.text).toContain('1240');
    } finally {
      await one.terminate();
    }
  });

  describe('a failed process', () => {
    async function region(): Promise<Buffer> {
      const doc = await openPdf(await scan());
      try {
        return toPam(await doc.renderRegionRaw(1, { x: 30, y: 40, w: 400, h: 140 }, { scale: 3 }));
      } finally {
        await doc.close();
      }
    }
    /** An engine whose attempt n has the deadline `limits[n - 1]`, recording the attempts made. */
    function withLimits(limits: number[], bin = binary!) {
      const attempts: number[] = [];
      const timeoutMs = (n: number) => {
        attempts.push(n);
        return limits[n - 1];
      };
      return { attempts, engine: createNativeTesseractEngine({ binary: bin, workers: 1, timeoutMs, retry: { initialBackoffMs: 0 } }) };
    }

    it('killed at its deadline is read again, and the retry returns the words', async () => {
      const image = await region();
      const { attempts, engine: e } = withLimits([1, 60_000]);
      try {
        expect((await e.recognize(image, { mode: 'block', dpi: 216 })).text).toContain('Error 1240');
        expect(attempts).toEqual([1, 2]);
      } finally {
        await e.terminate();
      }
    });

    it('killed at its deadline twice fails with ocr_failed, the cause and the attempts in its detail', async () => {
      const image = await region();
      const { attempts, engine: e } = withLimits([1, 1]);
      try {
        const err = await e.recognize(image, { mode: 'block', dpi: 216 }).catch((x: unknown) => x);
        expect(err).toMatchObject({ code: 'ocr_failed', detail: expect.stringMatching(/killed at its 1 ms deadline.*gave up after 2 attempts/) });
        expect(attempts).toEqual([1, 2]);
      } finally {
        await e.terminate();
      }
    });

    it('that cannot read its image fails at once', async () => {
      const { attempts, engine: e } = withLimits([60_000, 60_000]);
      try {
        await expect(e.recognize(Buffer.from('not an image'), { mode: 'block' })).rejects.toMatchObject({
          code: 'ocr_failed',
          detail: expect.stringMatching(/^tesseract exit \d+/),
        });
        expect(attempts).toEqual([1]);
      } finally {
        await e.terminate();
      }
    });

    it('that cannot start (the binary gone) fails at once with the reason', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-tess-'));
      const gone = path.join(dir, 'tesseract');
      fs.symlinkSync(binary!, gone);
      const { attempts, engine: e } = withLimits([60_000, 60_000], gone);
      fs.rmSync(dir, { recursive: true });
      try {
        await expect(e.recognize(await region(), { mode: 'block' })).rejects.toMatchObject({
          code: 'ocr_failed',
          detail: expect.stringMatching(/could not run tesseract: .*ENOENT/),
        });
        expect(attempts).toEqual([1]);
      } finally {
        await e.terminate();
      }
    });
  });

  it('stops a recognition when its signal aborts', async () => {
    const doc = await openPdf(await scan());
    const raw = await doc.renderRegionRaw(1, { x: 0, y: 0, w: 500, h: 300 }, { scale: 3 });
    await doc.close();
    const ac = new AbortController();
    const p = engine.recognize(toPam(raw), { signal: ac.signal });
    ac.abort(new Error('cancelled by test'));
    await expect(p).rejects.toThrow(/cancelled by test/);
  });
});

/**
 * The two engines read the same scanned pages (no ground truth exists for them): their words must
 * agree closely, so switching engines does not change what search finds. Measured: F1 0.95–0.98.
 */
describe.runIf(binary && hasSharedManuals)('native vs tesseract.js on scanned manual pages', () => {
  const pages: Array<[string, number]> = [
    [sharedManual('tek-4041-service-notes-1987.pdf'), 1],
    [sharedManual('tek-4041-service-notes-1987.pdf'), 3],
  ];
  const js = createTesseractEngine({ workers: 1 });
  const native = binary ? createNativeTesseractEngine({ binary, workers: 1 }) : undefined;
  afterAll(async () => {
    await js.terminate();
    await native?.terminate();
  });

  it.each(pages)(
    '%s page %i: word F1 ≥ 0.9',
    async (file, n) => {
      const doc = await openPdf(new Uint8Array(fs.readFileSync(file)), { maxBytes: Infinity });
      try {
        const page = await doc.extractPage(n);
        const targets = planOcr(page);
        const words = async (e: OcrEngine) =>
          (await ocrPage(doc, page, e, { targets })).regions
            .flatMap((r) => r.lines)
            .map((l) => l.text)
            .join(' ');
        const a = await words(js);
        const b = await words(native!);
        expect(a.split(/\s+/).length).toBeGreaterThan(100);
        expect(wordF1(a, b)).toBeGreaterThanOrEqual(0.9);
      } finally {
        await doc.close();
      }
    },
    120_000,
  );
});
