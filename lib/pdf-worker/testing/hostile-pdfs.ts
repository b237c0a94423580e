/**
 * Hostile PDFs for the hardening tests, generated on the fly (nothing hostile is stored in the
 * repo): a huge file of zeros behind a PDF header, and decompression bombs whose one page content
 * stream inflates to a chosen size of drawing operators.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { emptyPasswordAes } from '../../ingest/testing/encrypted-pdf';

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
function deflateRepeated(pattern: string, mb: number): Promise<Buffer> {
  return deflateUnits(Buffer.from(pattern.repeat(Math.ceil((1024 * 1024) / pattern.length)).slice(0, 1024 * 1024), 'latin1'), mb);
}

/** A valid one-page PDF whose page content is a Flate stream inflating to `mb` MB of `pattern`. */
export async function bombPdf(mb: number, pattern = '0 0 m 1 1 l S\n'): Promise<Buffer> {
  const content = await deflateRepeated(pattern, mb);
  return onePagePdf(content, '/Filter /FlateDecode');
}

/**
 * Filter chains the first upload scan walked around. Each is a one-page PDF whose
 * content stream decodes to `mb` MB of drawing operators through the named chain; the
 * file stays small. Encoders are written for these tests (pdf-lib has none of them).
 */
export type ChainBomb = 'double-flate' | 'nested-decodeparms' | 'ascii85-flate' | 'asciihex-flate' | 'lzw-flate' | 'runlength-flate';

export async function chainBombPdf(kind: ChainBomb, mb: number, pattern = '0 0 m 1 1 l S\n'): Promise<Buffer> {
  if (kind === 'nested-decodeparms') {
    // PNG "None" rows under a predictor; the /DecodeParms dictionary nests inside the stream's.
    const columns = 1023;
    const row = Buffer.concat([Buffer.from([0]), Buffer.from(pattern.repeat(Math.ceil(columns / pattern.length)).slice(0, columns), 'latin1')]);
    const rowsPerMb = Math.ceil((1024 * 1024) / columns);
    const unit = Buffer.concat(Array.from({ length: rowsPerMb }, () => row));
    const content = await deflateUnits(unit, mb);
    return onePagePdf(content, `/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 1 /BitsPerComponent 8 /Columns ${columns} >>`);
  }
  const flate = await deflateRepeated(pattern, mb);
  switch (kind) {
    case 'double-flate':
      return onePagePdf(zlib.deflateSync(flate, { level: 9 }), '/Filter [/FlateDecode /FlateDecode]');
    case 'ascii85-flate':
      return onePagePdf(ascii85(flate), '/Filter [/ASCII85Decode /FlateDecode]');
    case 'asciihex-flate':
      return onePagePdf(Buffer.from(`${flate.toString('hex')}>`, 'latin1'), '/Filter [/AHx /Fl]');
    case 'lzw-flate':
      return onePagePdf(lzw(flate), '/Filter [/LZWDecode /FlateDecode]');
    case 'runlength-flate':
      return onePagePdf(runLength(flate), '/Filter [/RunLengthDecode /FlateDecode]');
  }
}

/** Deflates `mb` copies of a one-megabyte `unit`, writing as the stream drains. */
async function deflateUnits(unit: Buffer, mb: number): Promise<Buffer> {
  const z = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  z.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  for (let i = 0; i < mb; i++) if (!z.write(unit)) await new Promise((r) => z.once('drain', r));
  z.end();
  await done;
  return Buffer.concat(parts);
}

/**
 * A Flate page bomb inside an AES-128 file with an empty user password: pdf.js opens it without
 * asking, and a scan of the raw bytes sees only ciphertext.
 */
export async function aesBombPdf(mb: number, pattern = '0 0 m 1 1 l S\n'): Promise<Buffer> {
  const aes = emptyPasswordAes();
  const content = aes.encrypt(4, await deflateRepeated(pattern, mb));
  const id = aes.id.toString('hex');
  return onePagePdf(content, '/Filter /FlateDecode', { extra: [Buffer.from(aes.encryptDict)], trailer: `/Encrypt 5 0 R /ID [<${id}> <${id}>] ` });
}

/** ASCII85 (Adobe), `~>` at the end. */
function ascii85(data: Buffer): Buffer {
  let out = '';
  for (let i = 0; i < data.length; i += 4) {
    const n = Math.min(4, data.length - i);
    const word = Buffer.alloc(4);
    data.copy(word, 0, i, i + n);
    let v = word.readUInt32BE(0);
    if (v === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const chars = new Array<string>(5);
    for (let k = 4; k >= 0; k--) {
      chars[k] = String.fromCharCode(33 + (v % 85));
      v = Math.floor(v / 85);
    }
    out += chars.slice(0, n + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

/** RunLength: literal runs of up to 128 bytes, then the end-of-data byte 128. */
function runLength(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += 128) {
    const chunk = data.subarray(i, i + 128);
    parts.push(Buffer.from([chunk.length - 1]), chunk);
  }
  parts.push(Buffer.from([128]));
  return Buffer.concat(parts);
}

/** LZW as PDF writes it: MSB-first codes of 9–12 bits, clear 256, end 257, EarlyChange 1. */
function lzw(data: Buffer): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (code: number, width: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >> (bits - 8)) & 255);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let dict = new Map<string, number>();
  let next = 258;
  let width = 9;
  const reset = () => {
    dict = new Map();
    next = 258;
    width = 9;
  };
  put(256, width);
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    const wc = w + c;
    if (w === '' || dict.has(wc)) {
      w = wc;
      continue;
    }
    put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!, width);
    dict.set(wc, next++);
    // EarlyChange: the decoder widens one code early.
    if (next + 1 > 1 << width && width < 12) width++;
    if (next >= 4094) {
      put(256, width);
      reset();
    }
    w = c;
  }
  if (w) put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!, width);
  put(257, width);
  if (bits > 0) put(0, 8 - bits);
  return Buffer.from(out);
}

/** A one-page PDF with `content` as its page's stream, `dict` the stream dictionary's entries besides /Length. */
function onePagePdf(content: Buffer, dict: string, opts: { trailer?: string; extra?: Buffer[] } = {}): Buffer {
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>'),
    // /Length before the filters: a scan that reads the dictionary from the last "<<" misses them.
    Buffer.concat([Buffer.from(`<< /Length ${content.length} ${dict} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    ...(opts.extra ?? []),
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
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${opts.trailer ?? ''}>>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
