import os from 'node:os';
import path from 'node:path';
import { ensureSampleManual } from '../lib/sample';

/** The generated sample manual on disk, for specs to upload through the browser. */
export async function samplePdfPath(): Promise<string> {
  const { pdfPath } = await ensureSampleManual(path.join(os.tmpdir(), 'mc-e2e-sample'));
  return pdfPath;
}
