/**
 * The bare OCR engine on a manual's scanned pages, for `ingest.ocr_engine_ratio`: every page the
 * pipeline reads whole is drawn first, exactly as the pipeline draws it (same plan, same scale
 * chosen from its text height, same PAM of raw pixels), and only then is the clock started on the
 * `tesseract` CLI alone, run on those images with the pipeline's process count (one thread each)
 * and arguments. What the pipeline adds on top (drawing, previews, waiting, embedding, indexing)
 * is what the ratio shows. The images are drawn once and read as many times as the bench asks, so
 * the engine can be timed right after each pipeline run of the same file (interleaved rounds).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { openPdf } from '../../ingest/pdf';
import { planOcr } from '../../ingest/ocr-page';
import { atReadingScale } from '../../ingest/ocr-scale';
import { toPam } from '../../ingest/render';

interface BareEngineRun {
  pages: number;
  /** Wall time of the engine runs only (from the first process started to the last one ended). */
  ms: number;
}

export interface BareEngine {
  pages: number;
  /** Pixels per point the pages were read at (as the pipeline planned them). */
  scales: number[];
  /** Reads every drawn page once with the pipeline's process count, timed. */
  run(): Promise<BareEngineRun>;
}

/** One `tesseract` run on a PAM from stdin, TSV to stdout (what lib/ingest/ocr-native.ts runs). */
function runTesseract(binary: string, image: Buffer, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tesseract exit ${code}`))));
    child.stdin.on('error', () => {});
    child.stdin.end(image);
  });
}

/** Draws the scanned pages of `file` as the pipeline would; nothing is timed yet. */
export async function prepareBareEngine(file: string, opts: { binary: string; processes: number; languages?: string[] }): Promise<BareEngine> {
  const doc = await openPdf(new Uint8Array(await fs.promises.readFile(file)), { maxBytes: Infinity });
  const jobs: Array<{ image: Buffer; args: string[] }> = [];
  const scales: number[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.extractPage(n);
      for (const target of planOcr(page).filter((t) => t.mode === 'page')) {
        const raw = await atReadingScale(await doc.renderRegionRaw(n, target.bbox, { scale: target.scale }));
        scales.push(raw.scale);
        const args = ['stdin', 'stdout', '--psm', '3', '-l', (opts.languages ?? ['eng']).join('+'), '--dpi', String(Math.round(raw.scale * 72)), 'tsv'];
        jobs.push({ image: toPam(raw), args });
      }
    }
  } finally {
    await doc.close();
  }
  return {
    pages: jobs.length,
    scales,
    async run() {
      const t0 = performance.now();
      let next = 0;
      const lane = async () => {
        while (next < jobs.length) {
          const job = jobs[next++];
          await runTesseract(opts.binary, job.image, job.args);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, opts.processes) }, lane));
      return { pages: jobs.length, ms: Math.round(performance.now() - t0) };
    },
  };
}
