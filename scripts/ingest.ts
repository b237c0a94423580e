/**
 * `npm run ingest -- FILE.pdf… [--json]`: ingests files with the same pipeline as the web app,
 * into DATA_DIR. Exit status 0 only if no file failed.
 * --json prints {"files":[{"file","status":"ready"|"duplicate"|"failed","manual_id","pages","ocr_pages","error","ms"}]}.
 */
import fs from 'node:fs';
import { isIngestError } from '../lib/ingest/errors';
import { ingestManual, shutdownOcrEngine } from '../lib/ingest/pipeline';
import { recoverInterruptedJobs } from '../lib/ingest/recovery';
import { acceptUpload } from '../lib/manuals/service';
import { closeVectorStores } from '../lib/providers/vectorstore';
import { closeDb } from '../lib/store/db';

interface FileResult {
  file: string;
  status: 'ready' | 'duplicate' | 'failed';
  manual_id: string | null;
  pages: number | null;
  ocr_pages: number | null;
  error: string | null;
  ms: number;
}

async function ingestFile(file: string): Promise<FileResult> {
  const t0 = performance.now();
  const done = (r: Omit<FileResult, 'file' | 'ms'>): FileResult => ({ file, ...r, ms: Math.round(performance.now() - t0) });
  try {
    if (!fs.statSync(file).isFile()) return done({ status: 'failed', manual_id: null, pages: null, ocr_pages: null, error: 'Not a file.' });
    const { manual, duplicate } = await acceptUpload(fs.createReadStream(file), file, null);
    if (duplicate) return done({ status: 'duplicate', manual_id: manual.id, pages: manual.pageCount, ocr_pages: manual.ocrPages, error: null });
    if (manual.status === 'failed') return done({ status: 'failed', manual_id: manual.id, pages: manual.pageCount, ocr_pages: null, error: manual.error });
    const summary = await ingestManual(manual.id);
    if (!summary) return done({ status: 'failed', manual_id: manual.id, pages: null, ocr_pages: null, error: 'Another process is ingesting this manual.' });
    return done({
      status: summary.status,
      manual_id: manual.id,
      pages: summary.pages,
      ocr_pages: summary.ocrPages,
      error: summary.error ?? null,
    });
  } catch (err) {
    const message = isIngestError(err) ? err.message : err instanceof Error ? err.message : String(err);
    return done({ status: 'failed', manual_id: null, pages: null, ocr_pages: null, error: message });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  if (files.length === 0) {
    console.error('usage: npm run ingest -- FILE.pdf… [--json]');
    process.exit(2);
  }
  await recoverInterruptedJobs();
  const results: FileResult[] = [];
  for (const file of files) {
    const r = await ingestFile(file);
    results.push(r);
    if (!json) {
      const detail = r.status === 'failed' ? r.error : `${r.pages} pages${r.ocr_pages ? `, ${r.ocr_pages} with OCR` : ''}`;
      console.log(`${r.status.padEnd(9)} ${file} — ${detail} (${(r.ms / 1000).toFixed(1)} s)`);
    }
  }
  if (json) console.log(JSON.stringify({ files: results }));
  await shutdownOcrEngine();
  await closeVectorStores();
  await closeDb();
  process.exit(results.some((r) => r.status === 'failed') ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
