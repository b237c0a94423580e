/**
 * Page reads against the PDF workers and the disk: a refusal because the workers are busy is
 * answered `busy` and never remembered as the page's failure; one client cannot queue more than
 * RENDERS_PER_CLIENT renders; zoom renders are refused near the disk reserve and their cache is
 * held to a size cap, the oldest removed first.
 *
 * The read lane's one worker is held on a job that reads a named pipe, so what is queued behind it
 * stays queued until the test writes to the pipe: no timing involved.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pdfPoolStats, runPdfJob, stopPdfWorkers } from '../pdf-worker/pool';
import { closeDb } from '../store/db';
import { createManual, updateManual } from '../store/manuals';
import { generateSampleManual } from '../sample';
import { filesDir, manualDir, manualSourcePath, pageImagePath } from '../ingest/paths';
import { freeBytes } from '../runtime/disk-space';
import { pageImage, RENDERS_PER_CLIENT } from './page-images';
import { evictZoomRenders, ZOOM_CACHE_MAX_BYTES, ZOOM_DISK_FULL_MESSAGE, zoomImage } from './page-zoom';

const MB = 1024 * 1024;

async function addManual(id: string) {
  const pdf = (await generateSampleManual()).pdf;
  await createManual({ id, title: id, fileName: `${id}.pdf`, sha256: id.padEnd(64, '0'), sizeBytes: pdf.length });
  await updateManual(id, { status: 'ready', pageCount: 10 });
  fs.mkdirSync(manualDir(id), { recursive: true });
  fs.writeFileSync(manualSourcePath(id), pdf);
}

/** Holds the read lane's worker on a job reading a named pipe; returns the function that lets it go (the job then fails: not a PDF). */
function holdReadWorker(name: string): { release: () => Promise<void> } {
  const pipe = path.join(filesDir(), `${name}.fifo`);
  execFileSync('mkfifo', [pipe]);
  const held = runPdfJob({ kind: 'zoom', file: pipe, page: 1, scale: 3, imagePath: path.join(filesDir(), `${name}.png`) }).catch(() => undefined);
  expect(pdfPoolStats().lanes.read.busy).toBe(1);
  return {
    release: async () => {
      fs.writeFileSync(pipe, 'not a pdf'); // opens the pipe for writing: the worker's read ends
      await held;
      fs.rmSync(pipe);
    },
  };
}

const zoomFile = (id: string, page: number) => path.join(manualDir(id), 'zoom', `${page}@3.png`);

beforeAll(async () => {
  await addManual('reads-manual');
});
afterEach(() => {
  delete process.env.MC_MIN_FREE_MB;
});
afterAll(async () => {
  stopPdfWorkers();
  await closeDb();
});

describe('page reads and the PDF workers', () => {
  it('answers busy when the read queue is full, and renders the page once it drains (nothing remembered)', async () => {
    const worker = holdReadWorker('busy');
    const missing = path.join(filesDir(), 'no-such.pdf');
    const queued = Array.from({ length: 100 }, () =>
      runPdfJob({ kind: 'zoom', file: missing, page: 1, scale: 3, imagePath: `${missing}.png` }).catch(() => undefined),
    );
    expect(pdfPoolStats().lanes.read.queued).toBe(100);

    expect(await pageImage('reads-manual', 2, 'image')).toEqual({ busy: true });
    expect(await zoomImage('reads-manual', 2, 3)).toEqual({ busy: true });

    await worker.release();
    await Promise.all(queued);
    expect(await pageImage('reads-manual', 2, 'image')).toEqual({ file: pageImagePath('reads-manual', 2) });
    expect(await zoomImage('reads-manual', 2, 3)).toEqual({ file: zoomFile('reads-manual', 2) });
  }, 120_000);

  it(`lets one client queue ${RENDERS_PER_CLIENT} renders, refuses it more as busy, and still serves another client`, async () => {
    const worker = holdReadWorker('per-client');
    const pages = Array.from({ length: RENDERS_PER_CLIENT }, (_, i) => i + 3);
    const mine = pages.map((p) => zoomImage('reads-manual', p, 3, '203.0.113.7'));
    // Counted as the requests arrive, before any of them reached the workers.
    expect(await zoomImage('reads-manual', 1, 3, '203.0.113.7')).toEqual({ busy: true });
    // Joining a render the client already started costs nothing.
    const joined = zoomImage('reads-manual', pages[0], 3, '203.0.113.7');
    const other = zoomImage('reads-manual', 1, 3, '198.51.100.2');

    await worker.release();
    expect(await Promise.all(mine)).toEqual(pages.map((p) => ({ file: zoomFile('reads-manual', p) })));
    expect(await joined).toEqual({ file: zoomFile('reads-manual', pages[0]) });
    expect(await other).toEqual({ file: zoomFile('reads-manual', 1) });
    // The slots came back with the renders.
    expect(await zoomImage('reads-manual', 9, 3, '203.0.113.7')).toEqual({ file: zoomFile('reads-manual', 9) });
  }, 180_000);
});

describe('zoom renders and the disk', () => {
  it('refuses a new zoom render when the disk is near the reserve, without remembering it', async () => {
    // A reserve just below the free space: less room than one zoom render may need.
    process.env.MC_MIN_FREE_MB = String(Math.max(0, Math.floor(freeBytes(filesDir()) / MB) - 8));
    expect(await zoomImage('reads-manual', 10, 3)).toEqual({ diskFull: ZOOM_DISK_FULL_MESSAGE });
    expect(fs.existsSync(zoomFile('reads-manual', 10))).toBe(false);
    // A page already rendered is still served.
    expect(await zoomImage('reads-manual', 1, 3)).toEqual({ file: zoomFile('reads-manual', 1) });
    delete process.env.MC_MIN_FREE_MB;
    expect(await zoomImage('reads-manual', 10, 3)).toEqual({ file: zoomFile('reads-manual', 10) });
  }, 120_000);

  it('keeps all zoom renders under the cache cap, removing the oldest first', async () => {
    // An old render of another manual that fills the cache by itself (sparse: no real disk used).
    const oldDir = path.join(manualDir('old-manual'), 'zoom');
    fs.mkdirSync(oldDir, { recursive: true });
    const old = path.join(oldDir, '1@4.5.png');
    fs.closeSync(fs.openSync(old, 'w'));
    fs.truncateSync(old, ZOOM_CACHE_MAX_BYTES);
    fs.utimesSync(old, new Date(0), new Date(0));

    // The next render pushes the cache past its cap: the oldest render goes, the new one stays.
    fs.rmSync(zoomFile('reads-manual', 8), { force: true });
    expect(await zoomImage('reads-manual', 8, 3)).toEqual({ file: zoomFile('reads-manual', 8) });
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(zoomFile('reads-manual', 8))).toBe(true);

    // Oldest first, down to the cap.
    const files = [3, 4, 5].map((p) => zoomFile('reads-manual', p));
    files.forEach((f, i) => fs.utimesSync(f, new Date(1000 * (i + 1)), new Date(1000 * (i + 1))));
    const all = fs.readdirSync(path.join(manualDir('reads-manual'), 'zoom')).map((n) => path.join(manualDir('reads-manual'), 'zoom', n));
    const total = all.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    const cap = total - fs.statSync(files[0]).size - 1;
    expect(evictZoomRenders(cap)).toBe(2);
    expect(files.map((f) => fs.existsSync(f))).toEqual([false, false, true]);
  }, 120_000);
});
