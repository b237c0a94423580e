/**
 * A PDF worker process (started by pool.ts with a heap cap): runs one job at a time — opening,
 * inspecting, rendering (stored page images and zoom renders) or placing values on a page of a PDF with pdf.js — so a hostile file can only exhaust this process,
 * which the pool then kills and replaces. The web server never runs pdf.js itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bombedError, runGuarded } from '../ingest/decode-guard';
import { IngestError } from '../ingest/errors';
import { openPdf } from '../ingest/pdf';
import { encodePageImages, PAGE_SCALE } from '../ingest/render';
import { locateValues } from '../ingest/word-boxes';
import { type InspectResult, type JobResult, type LocateResult, type PdfJob, type WorkerReply, type WorkerRequest, ZOOM_SCALES } from './protocol';
import { assertInflatedSizeWithin } from './stream-scan';

async function inspect(job: Extract<PdfJob, { kind: 'inspect' }>): Promise<InspectResult> {
  const bytes = new Uint8Array(await fs.promises.readFile(job.file));
  assertInflatedSizeWithin(bytes);
  const doc = await openPdf(bytes, { password: job.password, maxPages: job.maxPages, maxBytes: job.maxBytes });
  try {
    return { pages: doc.numPages, title: doc.info.title };
  } finally {
    await doc.close();
  }
}

async function writeAtomically(file: string, data: Buffer) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await fs.promises.writeFile(`${file}.tmp`, data);
  await fs.promises.rename(`${file}.tmp`, file); // a reader never sees half a file
}

async function render(job: Extract<PdfJob, { kind: 'render' }>): Promise<{ rendered: true }> {
  const bytes = new Uint8Array(await fs.promises.readFile(job.file));
  const doc = await openPdf(bytes, { password: job.password, maxBytes: Infinity, maxPages: Infinity });
  try {
    const { png, thumb } = await encodePageImages(await doc.renderPageRaw(job.page, { scale: PAGE_SCALE }));
    await writeAtomically(job.imagePath, png);
    await writeAtomically(job.thumbPath, thumb);
    return { rendered: true };
  } finally {
    await doc.close();
  }
}

/** A sharper render of one page; only the scales on offer, so a request cannot ask for a giant bitmap. */
async function zoom(job: Extract<PdfJob, { kind: 'zoom' }>): Promise<{ rendered: true }> {
  if (!ZOOM_SCALES.includes(job.scale)) throw new IngestError('render_failed', `Page ${job.page} cannot be rendered at scale ${job.scale}.`);
  const bytes = new Uint8Array(await fs.promises.readFile(job.file));
  const doc = await openPdf(bytes, { password: job.password, maxBytes: Infinity, maxPages: Infinity });
  try {
    const { png } = await doc.renderPage(job.page, { scale: job.scale });
    await writeAtomically(job.imagePath, png);
    return { rendered: true };
  } finally {
    await doc.close();
  }
}

async function locate(job: Extract<PdfJob, { kind: 'locate' }>): Promise<LocateResult> {
  const bytes = new Uint8Array(await fs.promises.readFile(job.file));
  return { boxes: await locateValues(bytes, job.page, job.targets, job.password) };
}

function run(job: PdfJob): Promise<JobResult> {
  if (job.kind === 'inspect') return inspect(job);
  if (job.kind === 'render') return render(job);
  if (job.kind === 'zoom') return zoom(job);
  return locate(job);
}

/** One job, its decodes capped (decode-guard.ts): a stream past its cap fails it, whatever pdf.js made of the error. */
function reply(id: number, job: PdfJob): Promise<WorkerReply> {
  return runGuarded(async () => {
    try {
      const result = await run(job);
      const bomb = bombedError();
      if (bomb) throw bomb;
      return { id, ok: true, result };
    } catch (err) {
      const e =
        bombedError() ??
        (err instanceof IngestError ? err : new IngestError('corrupt', 'This PDF is damaged or incomplete and cannot be read.', { detail: String(err) }));
      return { id, ok: false, error: { code: e.code, message: e.message, detail: e.detail, retryable: e.retryable } };
    }
  });
}

process.on('message', async ({ id, job }: WorkerRequest) => {
  process.send?.(await reply(id, job));
});
// The pool owns this process: when it goes, so do we.
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
