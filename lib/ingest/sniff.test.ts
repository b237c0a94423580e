import { describe, expect, it } from 'vitest';
import { describeNonPdf, findPdfHeader } from './sniff';

const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('findPdfHeader', () => {
  it('finds %PDF- at the start or after junk within 1024 bytes, not later', () => {
    expect(findPdfHeader(bytes('%PDF-1.7\n'))).toBe(0);
    expect(findPdfHeader(bytes('x'.repeat(1000), '%PDF-1.4'))).toBe(1000);
    expect(findPdfHeader(bytes('x'.repeat(1020), '%PDF-1.4'))).toBe(-1);
    expect(findPdfHeader(bytes('%PDF'))).toBe(-1);
  });
});

describe('describeNonPdf', () => {
  it.each([
    [bytes([0x89], 'PNG\r\n', [0x1a, 0x0a]), 'a PNG image'],
    [bytes([0xff, 0xd8, 0xff, 0xe0]), 'a JPEG image'],
    [bytes('GIF89a'), 'a GIF image'],
    [bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'a WebP image'],
    [bytes('II*', [0]), 'a TIFF image'],
    [bytes('PK', [3, 4], 'xxxxword/document.xml'), 'a Word document (.docx)'],
    [bytes('PK', [3, 4], 'xxxxxl/workbook.xml'), 'an Excel workbook (.xlsx)'],
    [bytes('PK', [3, 4], 'readme.txt'), 'a ZIP archive'],
    [bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'an old-style Office document (.doc/.xls)'],
    [bytes('<!DOCTYPE html><html>'), 'a web page (HTML)'],
    [bytes('%!PS-Adobe-3.0'), 'a PostScript file'],
    [bytes('Error codes:\n1240 No error status\n'), 'a plain text file'],
  ])('%#: %s', (input, expected) => {
    expect(describeNonPdf(input)).toBe(expected);
  });

  it('says nothing about unrecognisable binary', () => {
    expect(describeNonPdf(new Uint8Array([0, 1, 2, 3, 250, 251, 252, 7, 8, 9]))).toBeUndefined();
  });
});
