import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isIngestError } from '../ingest/errors';
import { assertInflatedSizeWithin } from './stream-scan';

const MB = 1024 * 1024;
const stream = (dict: string, inflatedMb: number) => {
  const data = zlib.deflateSync(Buffer.alloc(inflatedMb * MB, 0x20), { level: 9 });
  return Buffer.concat([
    Buffer.from(`1 0 obj\n<< ${dict} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
};
const caps = { perStream: 4 * MB, perImage: 16 * MB, total: 24 * MB };
const refused = (pdf: Buffer) => {
  try {
    assertInflatedSizeWithin(pdf, caps);
    return null;
  } catch (err) {
    return isIngestError(err, 'corrupt') ? err.message : err;
  }
};

describe('decompression-bomb scan', () => {
  it('counts inflated bytes of every Flate stream', () => {
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      stream('', 1),
      stream('/Subtype /Image', 2),
      Buffer.from('2 0 obj\n<< /Length 5 >>\nstream\nhello\nendstream\n'),
    ]);
    expect(assertInflatedSizeWithin(pdf, caps)).toEqual({ streams: 2, inflatedBytes: 3 * MB });
  });

  it('refuses a content stream past its cap, allows an image of the same size, caps the total', () => {
    expect(refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), stream('', 5)]))).toMatch(/decompression bomb/);
    expect(refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), stream('/Type /XObject /Subtype /Image', 5)]))).toBeNull();
    expect(refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), stream('/Subtype /Image', 17)]))).toMatch(/decompression bomb/);
    const many = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...Array.from({ length: 7 }, () => stream('', 4))]);
    expect(refused(many)).toMatch(/decompression bomb/);
  });

  it('ignores damaged or non-Flate data (pdf.js judges those)', () => {
    const junk = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\nnot zlib at all\nendstream\n');
    expect(assertInflatedSizeWithin(junk, caps)).toEqual({ streams: 1, inflatedBytes: 0 });
  });
});
