/** Small test manuals made of plain text lines, for specs that need a layout the sample lacks. */
import { PDFDocument, StandardFonts } from 'pdf-lib';

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
