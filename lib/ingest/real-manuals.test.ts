/**
 * Slow integration test: every real manual in ../shared/manuals goes through the full pipeline on
 * the embedded default (pdf.js, tesseract OCR, offline embedder, LanceDB, SQLite).
 */
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptUpload } from '@/lib/manuals/service';
import { getVectorStore } from '@/lib/providers';
import { getManual, listPages } from '@/lib/store/manuals';
import { hasSharedManuals, SHARED_MANUALS_DIR, sharedManual } from '@/test/shared-manuals';
import { ingestManual, type IngestSummary } from './pipeline';
import { closeIngestStack } from './testing/teardown';

const files = hasSharedManuals
  ? fs
      .readdirSync(SHARED_MANUALS_DIR)
      .filter((f) => f.endsWith('.pdf'))
      .sort()
  : [];
const results = new Map<string, { id: string; summary: IngestSummary | null }>();

beforeAll(async () => {
  for (const file of files) {
    const { manual } = await acceptUpload(fs.createReadStream(sharedManual(file)), file, null);
    results.set(file, { id: manual.id, summary: await ingestManual(manual.id) });
  }
}, 1_200_000);

afterAll(closeIngestStack);

describe.runIf(hasSharedManuals)('all real manuals through the pipeline', () => {
  it.each(files)('%s is ready with as many pages as the PDF has', async (file) => {
    const { id, summary } = results.get(file)!;
    expect(summary?.error ?? null).toBeNull();
    expect(summary?.status).toBe('ready');
    const expected = (await PDFDocument.load(fs.readFileSync(sharedManual(file)), { ignoreEncryption: true, updateMetadata: false })).getPageCount();
    expect((await getManual(id))?.pageCount).toBe(expected);
    expect(await listPages(id)).toHaveLength(expected);
    expect((await (await getVectorStore()).count({ manualIds: [id] })).pages).toBe(expected);
  });

  it('reads the scanned Tektronix pages with OCR', async () => {
    const pages = await listPages(results.get('tek-4041-service-notes-1987.pdf')!.id);
    expect(pages.every((p) => p.ocr)).toBe(true);
    expect(pages.map((p) => p.text).join(' ')).toMatch(/error/i);
    const hits = await (await getVectorStore()).bm25Search('4041 disk drive error codes', { limit: 3 });
    expect(hits[0]?.manualId).toBe(results.get('tek-4041-service-notes-1987.pdf')!.id);
  });

  it('makes the raster-only BTT pinout labels searchable', async () => {
    const btt = results.get('btt-skr-mini-e3-v2-manual.pdf')!.id;
    const figurePages = (await listPages(btt)).filter((p) => p.number >= 5 && p.number <= 9);
    expect(figurePages.some((p) => p.ocr)).toBe(true);
    // Pin names exist only as pixels in the figures (the text layer has none of them).
    const ocrText = figurePages.map((p) => p.ocrText ?? '').join(' ');
    expect(ocrText).toMatch(/\bP[ABC]\d{1,2}\b/);
    const hits = await (await getVectorStore()).bm25Search('EXP1 MOSI SCK pin', { limit: 5, filter: { manualIds: [btt] } });
    expect(hits.some((h) => h.page >= 5 && h.page <= 9 && h.ocr)).toBe(true);
  });
});
