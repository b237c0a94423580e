import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSampleManual } from '../lib/sample';

/** The generated sample manual on disk, for specs to upload through the browser. */
export async function samplePdfPath(): Promise<string> {
  const { pdfPath } = await ensureSampleManual(path.join(os.tmpdir(), 'mc-e2e-sample'));
  return pdfPath;
}

/**
 * The sample manual with a unique comment after %%EOF: the same pages, a different sha256, so a
 * spec sees a fresh ingest even when another spec already uploaded the sample to this server.
 */
export async function uniqueSamplePdf(tag: string): Promise<{ path: string; fileName: string }> {
  const fileName = `acme-hx200-${tag}-${Date.now().toString(36)}.pdf`;
  const file = path.join(os.tmpdir(), 'mc-e2e-sample', fileName);
  fs.writeFileSync(file, Buffer.concat([fs.readFileSync(await samplePdfPath()), Buffer.from(`\n% ${fileName}\n`)]));
  return { path: file, fileName };
}

/** Writes a generated PDF where the browser can upload it from, under a unique file name. */
export function tempPdf(bytes: Uint8Array, stem: string): { path: string; fileName: string } {
  const fileName = `${stem}-${Date.now().toString(36)}.pdf`;
  const dir = path.join(os.tmpdir(), 'mc-e2e-sample');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  fs.writeFileSync(file, bytes);
  return { path: file, fileName };
}
