/** Page-level helpers for ingest tests: OCR a whole page at once, tell a drawn page from a blank one. */
import sharp from 'sharp';
import type { OcrEngine } from '../ocr';
import { startPageOcr, withOcrLines, type OcrPageOptions, type PageOcrResult } from '../ocr-page';
import { openPdf, type PageContent, type PdfDoc } from '../pdf';

/** Renders and recognises the planned targets of one page (all targets go to the pool at once). */
export async function ocrPage(doc: PdfDoc, page: PageContent, engine: OcrEngine, opts: OcrPageOptions = {}): Promise<PageOcrResult> {
  return startPageOcr(doc, page, engine, opts).result;
}

/**
 * Share of pixels that are not (near) white, 0…1. A blank render (the pdfjs 6 + Node 20 failure
 * mode, missing fonts) gives ~0, so callers and tests can tell a real page image from an empty one.
 */
export async function inkFraction(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  let ink = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] < 200) ink++;
  return ink / (info.width * info.height);
}

/** Every page of a PDF through the real parser; pages without a text layer through `ocr` when given. */
export async function readPdfPages(pdf: Uint8Array, ocr?: OcrEngine): Promise<PageContent[]> {
  const doc = await openPdf(pdf, { maxBytes: Infinity, maxPages: Infinity });
  try {
    const pages: PageContent[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.extractPage(n);
      if (!ocr || page.hasTextLayer) pages.push(page);
      else pages.push(withOcrLines(page, (await ocrPage(doc, page, ocr)).regions));
    }
    return pages;
  } finally {
    await doc.close();
  }
}
