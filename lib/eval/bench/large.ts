/**
 * `ingest.large` of `npm run bench`: a generated 2,000-page manual (text, tables, vector
 * figures, photos, scanned pages; lib/sample/large.ts) ingested by a child process running the
 * app's pipeline, with its pages/s and peak RSS (the worker's memory on a long manual).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LEAN_MALLOC_ENV } from '../../runtime/process-memory';
import { generateLargeManual } from '../../sample/large';
import type { Log } from '../ingest';
import { availabilityOf, type AvailabilityFigures } from './availability';

export interface LargeIngestReport extends Partial<AvailabilityFigures> {
  pages: number;
  ocr_pages: number;
  pages_per_s: number | null;
  worker_rss_mb: number;
  ms: number;
  timings?: Record<string, number>;
  error?: string;
}

export async function measureLargeIngest(opts: { root: string; dir: string; pages: number; log: Log }): Promise<LargeIngestReport> {
  const file = path.join(opts.dir, `large-${opts.pages}.pdf`);
  opts.log(`large: generating a ${opts.pages}-page manual…`);
  fs.mkdirSync(opts.dir, { recursive: true });
  fs.writeFileSync(file, await generateLargeManual({ pages: opts.pages }));
  const dataDir = path.join(opts.dir, 'data');
  opts.log(`large: ingesting it in a child process (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)…`);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(opts.root, 'lib', 'eval', 'bench', 'large-child.ts'), file], {
      cwd: opts.root,
      // The allocator settings the app's ingest worker runs with (worker-client.ts): its memory is the figure.
      env: { ...LEAN_MALLOC_ENV, ...process.env, DATA_DIR: dataDir, MC_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`large-manual ingest exited ${code}: ${stderr.slice(-500)}`))));
  });
  fs.rmSync(opts.dir, { recursive: true, force: true });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { status: string; pages: number; ocrPages: number; ms: number; timings?: Record<string, number>; error?: string; peakRssMb: number };
  const report: LargeIngestReport = {
    pages: r.pages,
    ocr_pages: r.ocrPages,
    pages_per_s: r.status === 'ready' && r.ms ? Math.round((r.pages * 100_000) / r.ms) / 100 : null,
    worker_rss_mb: r.peakRssMb,
    ms: r.ms,
    ...(r.status === 'ready' ? availabilityOf([{ pages: r.pages, ms: r.ms, timings: r.timings }]) : {}),
    ...(r.timings ? { timings: r.timings } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
  opts.log(
    `large: ${report.pages} pages (${report.ocr_pages} OCR) at ${report.pages_per_s} pages/s, worker peak RSS ${report.worker_rss_mb} MB; first page searchable after ${report.time_to_first_searchable_ms} ms, text searchable at ${report.time_to_searchable_pages_per_s} pages/s`,
  );
  return report;
}
