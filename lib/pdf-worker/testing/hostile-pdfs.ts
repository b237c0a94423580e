/**
 * Hostile PDFs for the hardening tests, generated on the fly (nothing hostile is stored in the
 * repo): a huge file of zeros behind a PDF header, and decompression bombs whose one page content
 * stream inflates to a chosen size of drawing operators.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

/** `%PDF-1.4` then `mb` megabytes of zeros, written in chunks (the test process never holds it). */
export function writeZerosPdf(file: string, mb: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, '%PDF-1.4\n');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < mb; i++) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}

/** Deflates `mb` megabytes of a repeated operator into a small stream, a megabyte at a time. */
async function deflateRepeated(pattern: string, mb: number): Promise<Buffer> {
  const unit = Buffer.from(pattern.repeat(Math.ceil((1024 * 1024) / pattern.length)).slice(0, 1024 * 1024), 'latin1');
  const z = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  z.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  for (let i = 0; i < mb; i++) if (!z.write(unit)) await new Promise((r) => z.once('drain', r));
  z.end();
  await done;
  return Buffer.concat(parts);
}

/** A valid one-page PDF whose page content is a Flate stream inflating to `mb` MB of `pattern`. */
export async function bombPdf(mb: number, pattern = '0 0 m 1 1 l S\n'): Promise<Buffer> {
  const content = await deflateRepeated(pattern, mb);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`), content, Buffer.from('\nendstream')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let at = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
