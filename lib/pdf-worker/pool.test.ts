/**
 * The PDF worker pool against hostile files: a 150 MB file of zeros
 * and decompression bombs are refused or killed inside a worker process while this process keeps
 * running its event loop, and the pool carries on with the next job.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIngestError } from '../ingest/errors';
import { inspectPdfFile, isPdfPoolBusy, pdfPoolStats, runPdfJob, stopPdfWorkers } from './pool';
import { aesBombPdf, bombPdf, chainBombPdf, writeZerosPdf } from './testing/hostile-pdfs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-pdf-pool-'));
const limits = { maxBytes: 500 * 1024 * 1024, maxPages: 2000 };

/**
 * Whether this process's event loop turned while `work` ran: an immediate queued at the start runs
 * before the work settles only if the work left the thread free (a synchronous inspection would
 * settle in microtasks first). Deterministic, whatever the machine's speed.
 */
async function whileTicking<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; turned: boolean }> {
  let turned = false;
  const immediate = setImmediate(() => {
    turned = true;
  });
  const [result] = await Promise.allSettled([work]);
  clearImmediate(immediate);
  return { result, turned };
}

async function twoPagePdf(file: string) {
  const doc = await PDFDocument.create();
  doc.setTitle('Pump controller service manual');
  for (let i = 0; i < 2; i++) doc.addPage([612, 792]).drawText(`Page ${i + 1}`, { x: 50, y: 700, size: 24 });
  fs.writeFileSync(file, await doc.save());
}

beforeAll(() => {
  process.env.PDF_JOB_TIMEOUT_S = '60';
  process.env.PDF_WORKER_MAX_RSS_MB = '700';
});
afterAll(() => {
  stopPdfWorkers();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('PDF worker pool', () => {
  it('inspects a good PDF in a worker process', async () => {
    const file = path.join(dir, 'good.pdf');
    await twoPagePdf(file);
    await expect(inspectPdfFile(file, limits)).resolves.toEqual({ pages: 2, title: 'Pump controller service manual' });
    expect(pdfPoolStats().workers).toBeGreaterThan(0);
  });

  it('refuses %PDF-1.4 + 150 MB of zeros without blocking this process', async () => {
    const file = path.join(dir, 'zeros.pdf');
    writeZerosPdf(file, 150);
    const { result, turned } = await whileTicking(inspectPdfFile(file, limits));
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason;
    expect(isIngestError(err, 'corrupt')).toBe(true);
    expect(err.message).toMatch(/damaged|limits/);
    expect(turned).toBe(true);
  }, 120_000);

  it('refuses a decompression bomb (one page inflating to 300 MB) at inspection', async () => {
    const file = path.join(dir, 'bomb.pdf');
    fs.writeFileSync(file, await bombPdf(300));
    const err = await inspectPdfFile(file, limits).catch((e) => e);
    expect(isIngestError(err, 'corrupt')).toBe(true);
    expect(err.message).toMatch(/decompression bomb/);
  }, 120_000);

  it('renders a zoom job in a worker at a scale on offer, and refuses any other scale there', async () => {
    const file = path.join(dir, 'zoom.pdf');
    await twoPagePdf(file);
    const imagePath = path.join(dir, 'zoom', '1@3.png');
    await expect(runPdfJob({ kind: 'zoom', file, page: 1, scale: 3, imagePath })).resolves.toEqual({ rendered: true });
    // 612 pt wide at 3 px per point.
    expect(fs.readFileSync(imagePath).readUInt32BE(16)).toBe(1836);
    const huge = path.join(dir, 'zoom', '1@40.png');
    const err = await runPdfJob({ kind: 'zoom', file, page: 1, scale: 40 as 3, imagePath: huge }).catch((e) => e);
    expect(isIngestError(err, 'render_failed')).toBe(true);
    expect(fs.existsSync(huge)).toBe(false);
  }, 120_000);

  it('fails renders of chain and encrypted bombs with the reason, inside the 700 MB cap', async () => {
    // 400 MB of operators behind double Flate (a 1.5 KB file) and behind AES with an empty password.
    const crashes = pdfPoolStats().crashes;
    for (const [name, bytes] of [
      ['double.pdf', await chainBombPdf('double-flate', 400)],
      ['aes.pdf', await aesBombPdf(400)],
    ] as const) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      const out = path.join(dir, `out-${name}`);
      const err = await runPdfJob({ kind: 'render', file, page: 1, imagePath: path.join(out, '1.png'), thumbPath: path.join(out, '1.webp') }).catch((e) => e);
      expect(isIngestError(err, 'corrupt'), String(err)).toBe(true);
      expect(err.message).toMatch(/decompression bomb/);
      expect(fs.existsSync(path.join(out, '1.png'))).toBe(false);
    }
    // Refused by the decode caps, not killed by the memory cap.
    expect(pdfPoolStats().crashes).toBe(crashes);
  }, 180_000);

  it('checks an upload at once while page reads fill their lane, and refuses reads past their queue as busy', async () => {
    // Two workers (the default): reads may hold one, the other stays free for upload checks.
    const good = path.join(dir, 'lanes.pdf');
    await twoPagePdf(good);
    const missing = path.join(dir, 'no-such.pdf');
    const read = () => runPdfJob({ kind: 'zoom', file: missing, page: 1, scale: 3, imagePath: path.join(dir, 'lanes', '1@3.png') }).catch((e: Error) => e);
    // One read running and 100 queued (they fail at once in the worker: no such file); one more is refused here.
    const reads = Array.from({ length: 102 }, read);
    expect(pdfPoolStats().lanes.read).toEqual({ busy: 1, queued: 100 });
    const upload = inspectPdfFile(good, limits);
    // The upload check started on the other worker, ahead of every queued read.
    expect(pdfPoolStats().lanes.upload).toEqual({ busy: 1, queued: 0 });
    await expect(upload).resolves.toMatchObject({ pages: 2 });
    const errors = await Promise.all(reads);
    expect(errors.filter(isPdfPoolBusy)).toHaveLength(1);
    expect(isPdfPoolBusy(errors[101])).toBe(true);
    expect((errors[101] as Error).message).toMatch(/busy/);
    expect(errors.slice(0, 101).every((e) => e instanceof Error && !isPdfPoolBusy(e))).toBe(true);
    expect(pdfPoolStats()).toMatchObject({ busy: 0, queued: 0 });
  }, 120_000);

  it('kills a render that exceeds the memory cap and keeps serving the next job', async () => {
    // 60 MB of drawing operators passes the per-stream cap; pdf.js's operator list for it does not fit.
    const file = path.join(dir, 'operators.pdf');
    fs.writeFileSync(file, await bombPdf(60));
    const crashes = pdfPoolStats().crashes;
    const out = path.join(dir, 'out');
    const { result, turned } = await whileTicking(
      runPdfJob({ kind: 'render', file, page: 1, imagePath: path.join(out, '1.png'), thumbPath: path.join(out, '1.webp') }),
    );
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason;
    expect(isIngestError(err, 'render_failed')).toBe(true);
    expect(err.message).toMatch(/memory|longer than|stopped/);
    expect(pdfPoolStats().crashes).toBe(crashes + 1);
    expect(fs.existsSync(path.join(out, '1.png'))).toBe(false);
    expect(turned).toBe(true);
    // A fresh worker takes the next job.
    const good = path.join(dir, 'good2.pdf');
    await twoPagePdf(good);
    await expect(inspectPdfFile(good, limits)).resolves.toMatchObject({ pages: 2 });
  }, 180_000);
});
