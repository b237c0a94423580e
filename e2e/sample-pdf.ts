import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPdf } from '../lib/ingest/pdf';
import { ensureSampleManual } from '../lib/sample';
import { generateStructureManual, imageOnlyCopy } from '../lib/sample/testing/tables';

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

/**
 * A scanned copy of the generated structure manual's page with the variants table (every cell
 * known, lib/sample/testing/tables.ts): the page drawn at 2× (144 dpi, a plain office scan) and
 * re-embedded as an image, so its words come back only through OCR. With a question built from one
 * of its cells' row and column labels, and that cell's value.
 */
export async function scannedTablePdf(stem: string): Promise<{ path: string; fileName: string; question: string; value: string }> {
  const manual = await generateStructureManual();
  const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells.find((c) => c.column.join(' ').startsWith('Power'))!;
  const doc = await openPdf(manual.pdf, { maxBytes: Infinity, maxPages: Infinity });
  try {
    const size = await doc.pageSize(cell.page);
    const scan = await imageOnlyCopy([{ png: (await doc.renderPage(cell.page, { scale: 2 })).png, ...size }]);
    return { ...tempPdf(scan, stem), question: `What is the ${cell.column.join(' ')} of the ${cell.row}?`, value: cell.value };
  } finally {
    await doc.close();
  }
}
