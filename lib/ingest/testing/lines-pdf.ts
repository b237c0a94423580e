/** Small test manuals made of plain text lines, for specs that need a layout the sample lacks. */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { openPdf } from '../pdf';

/** One line of a page: its text, font size and whether it is bold (a heading). */
export type PdfLine = [text: string, size: number, bold: boolean];

/**
 * A PDF titled `title` with one A4 page per entry of `pages`, each page's lines drawn from `top`
 * (points from the bottom) downwards in Helvetica.
 */
export async function linesPdf(title: string, pages: PdfLine[][], top = 780): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    let y = top;
    for (const [text, size, isBold] of lines) {
      page.drawText(text, { x: 56, y, size, font: isBold ? bold : regular });
      y -= size * 2.2;
    }
  }
  return doc.save();
}

/**
 * A "scan" of `pages`: each page of linesPdf drawn at 3× and embedded as one full-page image,
 * with no text layer, so OCR reads it whole. The line texts are its ground truth.
 */
export async function scannedLinesPdf(title: string, pages: PdfLine[][], top = 780): Promise<Uint8Array> {
  const source = await openPdf(await linesPdf(title, pages, top));
  const out = await PDFDocument.create();
  out.setTitle(title);
  try {
    for (let n = 1; n <= source.numPages; n++) {
      const img = await source.renderPage(n, { scale: 3 });
      out.addPage([595, 842]).drawImage(await out.embedPng(img.png), { x: 0, y: 0, width: 595, height: 842 });
    }
  } finally {
    await source.close();
  }
  return out.save();
}
