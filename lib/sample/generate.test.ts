import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, OPS, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_QUESTIONS_FILE } from './facts';
import {
  ensureSampleManual,
  generateSampleManual,
  IMAGE_ONLY_QUESTION_IDS,
  RASTER_PAGE,
  SAMPLE_MANUAL_FILE,
  SAMPLE_PAGE_COUNT,
  SAMPLE_PAGES,
  SAMPLE_QUESTIONS,
  type SampleManual,
  type SampleQuestion,
} from './index';

const require = createRequire(import.meta.url);
const STANDARD_FONTS = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
const DEV_QA = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'eval', 'dev-qa.jsonl');

/** Terms that must stay absent, so the "unanswerable" questions really are unanswerable. */
const UNANSWERABLE_ABSENT: Record<string, string[]> = {
  s21: ['cable length', 'maximum length', '1200 m'],
  s22: ['viscosity', 'ISO VG', 'oil grade'],
  s23: ['MTBF', 'mean time'],
};

// The eval's matching rule for the negative checks: ignore case and all whitespace, U+2212 = '-'.
const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/\u2212/g, '-');
// Stricter rule for the positive checks: the keyword must appear as written, modulo spacing runs.
const collapse = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

interface ParsedPage {
  text: string;
  items: Array<{ str: string; height: number }>;
  hasImage: boolean;
}

async function openPdf(pdf: Uint8Array): Promise<PDFDocumentProxy> {
  // pdfjs may transfer (detach) the buffer it is given; hand it a copy.
  return getDocument({ data: pdf.slice(), standardFontDataUrl: STANDARD_FONTS, useSystemFonts: false, isEvalSupported: false }).promise;
}

async function parse(pdf: Uint8Array): Promise<ParsedPage[]> {
  const doc = await openPdf(pdf);
  const pages: ParsedPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const items = content.items.flatMap((i) => ('str' in i ? [{ str: i.str, height: i.height }] : []));
    const ops = await page.getOperatorList();
    pages.push({
      text: collapse(items.map((i) => i.str).join(' ')),
      items,
      hasImage: ops.fnArray.includes(OPS.paintImageXObject),
    });
  }
  await doc.destroy();
  return pages;
}

describe('sample manual', () => {
  let manual: SampleManual;
  let pages: ParsedPage[];

  beforeAll(async () => {
    manual = await generateSampleManual();
    pages = await parse(manual.pdf);
  });

  const answerable = SAMPLE_QUESTIONS.filter((q) => q.kind !== 'unanswerable');
  const textQuestions = answerable.filter((q) => !IMAGE_ONLY_QUESTION_IDS.includes(q.id));
  const imageQuestions = SAMPLE_QUESTIONS.filter((q) => IMAGE_ONLY_QUESTION_IDS.includes(q.id));

  it('has 8-12 pages, matching the page list in facts.ts', () => {
    expect(pages.length).toBe(SAMPLE_PAGE_COUNT);
    expect(pages.length).toBeGreaterThanOrEqual(8);
    expect(pages.length).toBeLessThanOrEqual(12);
  });

  it.each(textQuestions.map((q) => [q.id, q] as const))('%s: every keyword is in the text of the listed pages', (_id, q) => {
    const text = q.pages.map((p) => pages[p - 1].text).join(' ');
    for (const kw of q.answer_keywords) expect(text, `"${kw}" on pages ${q.pages.join(',')}`).toContain(collapse(kw));
  });

  it('multi-hop questions really need more than one page', () => {
    for (const q of SAMPLE_QUESTIONS.filter((x) => x.kind === 'multi-hop')) {
      expect(q.pages.length).toBeGreaterThan(1);
      for (const p of q.pages) {
        const all = q.answer_keywords.every((kw) => pages[p - 1].text.includes(collapse(kw)));
        expect(all, `${q.id}: page ${p} alone holds every keyword`).toBe(false);
      }
    }
  });

  it.each(imageQuestions.map((q) => [q.id, q] as const))('%s: keywords exist only as pixels, in no text layer', (_id, q) => {
    expect(q.pages).toEqual([RASTER_PAGE]);
    for (const kw of q.answer_keywords) {
      pages.forEach((page, i) => expect(squash(page.text), `"${kw}" leaked into the text of page ${i + 1}`).not.toContain(squash(kw)));
    }
  });

  it('draws an image on the raster page and nowhere else', () => {
    expect(pages.map((p, i) => (p.hasImage ? i + 1 : null)).filter(Boolean)).toEqual([RASTER_PAGE]);
  });

  it('renders the raster page with the yellow service label visible', async () => {
    const doc = await openPdf(manual.pdf);
    const page = await doc.getPage(RASTER_PAGE);
    const viewport = page.getViewport({ scale: 1 });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx = canvas.getContext('2d');
    // pdfjs types the context as a DOM CanvasRenderingContext2D; @napi-rs/canvas implements that API.
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: ctx as unknown as CanvasRenderingContext2D, viewport }).promise;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let yellow = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 220 && data[i + 1] > 180 && data[i + 2] < 60) yellow++;
    await doc.destroy();
    expect(yellow).toBeGreaterThan(1500);
  });

  it.each(Object.entries(UNANSWERABLE_ABSENT))('%s stays unanswerable: the manual never mentions it', (id, terms) => {
    expect(SAMPLE_QUESTIONS.find((q) => q.id === id)?.kind).toBe('unanswerable');
    for (const term of terms) pages.forEach((page, i) => expect(page.text, `"${term}" on page ${i + 1}`).not.toContain(collapse(term)));
  });

  it('sets section headings larger than body text and numbers every page in the footer', () => {
    const body = 10;
    SAMPLE_PAGES.forEach(({ page, title }) => {
      const p = pages[page - 1];
      expect(p.text).toContain(collapse(`Page ${page} of ${SAMPLE_PAGE_COUNT}`));
      if (page === 1) return;
      // The contents list repeats titles at body size; the heading is the tallest occurrence.
      const sizes = p.items.filter((i) => i.str === title).map((i) => i.height);
      expect(sizes.length, `heading "${title}" on page ${page}`).toBeGreaterThan(0);
      expect(Math.max(...sizes)).toBeGreaterThan(body * 1.5);
    });
    expect(pages[0].items.find((i) => i.str === 'HX-200')!.height).toBeGreaterThan(40);
  });

  it('is byte-identical across runs, and the ground truth carries its sha256', async () => {
    const again = await generateSampleManual();
    expect(Buffer.from(again.pdf).equals(Buffer.from(manual.pdf))).toBe(true);
    expect(manual.groundTruth.sha256).toBe(crypto.createHash('sha256').update(manual.pdf).digest('hex'));
    expect(again.groundTruth).toEqual(manual.groundTruth);
  });
});

describe('sample ground truth', () => {
  it('uses the dev-qa.jsonl shape, with enough questions of every kind', () => {
    const keys = ['id', 'manual', 'question', 'answer_keywords', 'pages', 'kind'];
    if (fs.existsSync(DEV_QA)) expect(Object.keys(JSON.parse(fs.readFileSync(DEV_QA, 'utf8').split('\n')[0]))).toEqual(keys);
    for (const q of SAMPLE_QUESTIONS) {
      expect(Object.keys(q)).toEqual(keys);
      expect(q.manual).toBe(SAMPLE_MANUAL_FILE);
      const unanswerable = q.kind === 'unanswerable';
      expect(q.answer_keywords.length === 0).toBe(unanswerable);
      expect(q.pages.length === 0).toBe(unanswerable);
      expect(q.answer_keywords.length).toBeLessThanOrEqual(3);
      // ASCII only, like dev-qa: an answer saying "75°C" or "75 degC" must still be able to match.
      for (const kw of q.answer_keywords) expect(kw).toMatch(/^[\x20-\x7e]+$/);
      for (const p of q.pages) expect(p >= 1 && p <= SAMPLE_PAGE_COUNT).toBe(true);
    }
    expect(new Set(SAMPLE_QUESTIONS.map((q) => q.id)).size).toBe(SAMPLE_QUESTIONS.length);
    expect(SAMPLE_QUESTIONS.filter((q) => q.kind !== 'unanswerable').length).toBeGreaterThanOrEqual(12);
    expect(SAMPLE_QUESTIONS.filter((q) => q.kind === 'unanswerable').length).toBeGreaterThanOrEqual(2);
    for (const kind of ['fact', 'table', 'visual', 'procedure'] as const) expect(SAMPLE_QUESTIONS.some((q) => q.kind === kind)).toBe(true);
    // Every content page is the answer to at least one question.
    const covered = new Set(SAMPLE_QUESTIONS.flatMap((q) => q.pages));
    for (let p = 2; p <= SAMPLE_PAGE_COUNT; p++) expect(covered.has(p), `page ${p}`).toBe(true);
  });
});

describe('ensureSampleManual', () => {
  it('writes the pdf, json and jsonl once, then leaves them alone until one goes missing', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-sample-')), 'sample');
    const first = await ensureSampleManual(dir);
    expect(first.created).toBe(true);
    expect(path.basename(first.pdfPath)).toBe(SAMPLE_MANUAL_FILE);
    expect(path.basename(first.questionsPath)).toBe(SAMPLE_QUESTIONS_FILE);

    const gt = JSON.parse(fs.readFileSync(first.groundTruthPath, 'utf8'));
    expect(gt.manual).toBe(SAMPLE_MANUAL_FILE);
    expect(gt.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(first.pdfPath)).digest('hex'));
    expect(gt.questions).toEqual(SAMPLE_QUESTIONS);
    const lines = fs
      .readFileSync(first.questionsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SampleQuestion);
    expect(lines).toEqual(SAMPLE_QUESTIONS);

    // Marker bytes prove the second call did not rewrite the file.
    fs.appendFileSync(first.pdfPath, '%marker\n');
    const second = await ensureSampleManual(dir);
    expect(second).toEqual({ ...first, created: false });
    expect(fs.readFileSync(first.pdfPath, 'utf8').endsWith('%marker\n')).toBe(true);

    fs.rmSync(first.questionsPath);
    const third = await ensureSampleManual(dir);
    expect(third.created).toBe(true);
    expect(fs.existsSync(first.questionsPath)).toBe(true);
    expect(fs.readFileSync(first.pdfPath, 'utf8').endsWith('%marker\n')).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
