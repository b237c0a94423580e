/**
 * The ingestion building blocks the pipeline uses, in one place:
 *
 *   const doc = await openPdf(bytes, { password });          // validates, throws IngestError
 *   const page = await doc.extractPage(n);                   // lines, blocks, headings, images
 *   const ocr = await ocrPage(doc, page, engine);            // when planOcr(page) is not empty
 *   const full = withOcrLines(page, ocr.regions);
 *   const { png } = await doc.renderPage(n);                 // + makeThumbnail(png)
 *
 * The pipeline runs the first steps as one pipelined pass over the pages (page-pass.ts: PagePass),
 * with raw renders (doc.renderPageRaw / renderRegionRaw) encoded off the JS thread.
 *   const chunks = chunkPages(manualId, pages);              // after all pages are extracted
 *   await doc.close();
 *
 * Modules can also be imported one by one (ocr.ts pulls in tesseract.js; pdf.ts does not).
 */
export { type Chunk, type ChunkOptions, DEFAULT_CHUNK_OPTIONS, chunkPages, estimateTokens } from './chunk';
export { IngestError, type IngestErrorCode, ingestErrors, isIngestError } from './errors';
export type { ImageRegion } from './images';
export { type BlockKind, type Heading, type PageLayout, type TextBlock, type TextCell, type TextLine, markRunningLines } from './layout';
export { type OcrEngine, type OcrOptions, type OcrResult, type OcrWord, createTesseractEngine, defaultOcrWorkers } from './ocr';
export { type OcrTarget, type PageOcrResult, ocrPage, planOcr, withOcrLines } from './ocr-page';
export { MIN_TEXT_LAYER_CHARS, type OpenPdfOptions, type PageContent, type PdfDoc, openPdf, validatePdfBytes } from './pdf';
export { OCR_SCALE, PAGE_SCALE, type RenderedImage, type RenderOptions, inkFraction, makeThumbnail } from './render';
