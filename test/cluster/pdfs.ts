import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * A small text PDF of `pages` pages whose words are unique to `tag` (so each upload is a new
 * file and its pages can be told apart in search).
 */
export async function textPdf(tag: string, pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${tag} service manual — section ${p}`, { x: 56, y: 780, size: 18, font });
    const lines = [
      `Unit ${tag} page ${p}: tighten the flange bolts of assembly ${tag}-${p} to ${20 + p} Nm.`,
      `Check the relief valve ${tag}-RV${p} every ${p * 100} operating hours and replace the seal kit.`,
      `Fault ${tag}-E${p}: the drive stops; inspect connector X${p} and reset the controller.`,
    ];
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 740 - i * 18, size: 11, font }));
  }
  return Buffer.from(await doc.save());
}
