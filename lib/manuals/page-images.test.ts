/**
 * On-demand page images: a page not on disk is rendered in a PDF worker,
 * concurrent requests share one render, a caller that cannot wait gets `pending`, and a page
 * that blows the worker's limits fails once and is not re-rendered on every request.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPoolStats, stopPdfWorkers } from '../pdf-worker/pool';
import { bombPdf } from '../pdf-worker/testing/hostile-pdfs';
import { closeDb } from '../store/db';
import { createManual, updateManual } from '../store/manuals';
import { generateSampleManual } from '../sample';
import { manualDir, manualSourcePath, pageImagePath, pageThumbPath } from '../ingest/paths';
import { ensurePageImage, pageImage } from './page-images';

async function addManual(id: string, pdf: Uint8Array, pages: number) {
  await createManual({ id, title: id, fileName: `${id}.pdf`, sha256: id.padEnd(64, '0'), sizeBytes: pdf.length });
  await updateManual(id, { status: 'ready', pageCount: pages });
  fs.mkdirSync(manualDir(id), { recursive: true });
  fs.writeFileSync(manualSourcePath(id), pdf);
}

beforeAll(() => {
  process.env.PDF_WORKER_MAX_RSS_MB = '600';
});
afterAll(async () => {
  stopPdfWorkers();
  await closeDb();
});

describe('on-demand page images', () => {
  it('renders a missing page once for concurrent requests, in a worker', async () => {
    await addManual('good-manual', (await generateSampleManual()).pdf, 10);
    const [a, b, c] = await Promise.all([
      pageImage('good-manual', 3, 'image'),
      pageImage('good-manual', 3, 'thumb'),
      ensurePageImage('good-manual', 3, 'image'),
    ]);
    expect(a).toEqual({ file: pageImagePath('good-manual', 3) });
    expect(b).toEqual({ file: pageThumbPath('good-manual', 3) });
    expect(c).toBe(pageImagePath('good-manual', 3));
    expect(fs.statSync(pageImagePath('good-manual', 3)).size).toBeGreaterThan(1000);
    expect(await pageImage('good-manual', 11, 'image')).toBeNull();
    expect(await pageImage('no-such-manual', 1, 'image')).toBeNull();
  }, 120_000);

  it('answers pending while a hostile page renders, then failed, and does not render it again', async () => {
    await addManual('bomb-manual', await bombPdf(200), 1);
    expect(await pageImage('bomb-manual', 1, 'image', 50)).toEqual({ pending: true });
    const crashes = pdfPoolStats().crashes;
    const done = await pageImage('bomb-manual', 1, 'image');
    // Refused by the decode caps where pdf.js inflates the page, before the worker's memory cap.
    expect(done).toMatchObject({ failed: expect.stringMatching(/decompression bomb/) });
    expect(pdfPoolStats().crashes).toBe(crashes);
    expect(fs.existsSync(pageImagePath('bomb-manual', 1))).toBe(false);
    // Remembered: the next request fails at once instead of starting another render.
    expect(await pageImage('bomb-manual', 1, 'image', 0)).toMatchObject({ failed: expect.any(String) });
    expect(pdfPoolStats()).toMatchObject({ busy: 0, queued: 0 });
  }, 180_000);
});
