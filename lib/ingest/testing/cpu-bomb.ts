/**
 * An ingest CPU bomb, generated on the fly: `pages` pages that all draw one shared Flate content
 * stream of `mb` MB of path operators. The file stays tiny (the stream is stored once and
 * compresses ~150×) and passes every decode cap, but each page costs the whole stream to parse
 * and draw.
 */
import zlib from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';

export async function cpuBombPdf(opts: { pages: number; mb: number }): Promise<Uint8Array> {
  // Short strokes spread over the page, so drawing them costs real rasterising, not just parsing;
  // a block under deflate's 32 KB window, so the repeats compress to almost nothing.
  const unit: string[] = [];
  for (let i = 0; i < 1024; i++) unit.push(`${(i * 37) % 600} ${(i * 53) % 780} m ${(i * 71) % 600} ${(i * 29) % 780} l S\n`);
  const block = Buffer.from(unit.join(''), 'latin1');
  const copies = Math.max(1, Math.round((opts.mb * 1024 * 1024) / block.length));
  const raw = Buffer.concat(Array.from({ length: copies }, () => block));
  const doc = await PDFDocument.create();
  const stream = doc.context.stream(zlib.deflateSync(raw, { level: 9 }), { Filter: 'FlateDecode' });
  const ref = doc.context.register(stream);
  for (let i = 0; i < opts.pages; i++) doc.addPage([612, 792]).node.set(PDFName.of('Contents'), ref);
  return doc.save({ useObjectStreams: false });
}
