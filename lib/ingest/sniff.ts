/**
 * Content sniffing: decide from the bytes (never the file name) whether an upload is a PDF and,
 * if not, what it most likely is, so the error can say "looks like a PNG image".
 */

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
/** The PDF spec allows leading junk; readers (and pdf.js) accept the header within 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;

export function findPdfHeader(bytes: Uint8Array): number {
  const end = Math.min(bytes.length, PDF_HEADER_WINDOW) - PDF_MAGIC.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < PDF_MAGIC.length; j++) if (bytes[i + j] !== PDF_MAGIC[j]) continue outer;
    return i;
  }
  return -1;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** A human description of a non-PDF file ("a PNG image"), or undefined if unrecognised. */
export function describeNonPdf(bytes: Uint8Array): string | undefined {
  const b = bytes;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'a PNG image';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'a GIF image';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'a WebP image';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'a TIFF image';
  if (ascii(b, 0, 2) === 'BM' && b.length > 14) return 'a BMP image';
  if (ascii(b, 4, 8) === 'ftyp') return 'a video or HEIC image';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) {
    // Office Open XML and EPUB are ZIP containers; their first entry names give them away.
    const head = ascii(b, 0, Math.min(b.length, 2000));
    if (head.includes('word/')) return 'a Word document (.docx)';
    if (head.includes('xl/')) return 'an Excel workbook (.xlsx)';
    if (head.includes('ppt/')) return 'a PowerPoint presentation (.pptx)';
    if (head.includes('epub')) return 'an EPUB e-book';
    return 'a ZIP archive';
  }
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'an old-style Office document (.doc/.xls)';
  if (startsWith(b, [0x1f, 0x8b])) return 'a gzip-compressed file';
  if (ascii(b, 0, 4) === '%!PS') return 'a PostScript file';
  if (ascii(b, 0, 5) === '{\\rtf') return 'an RTF document';
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'a web page (HTML)';
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'an SVG image';
  if (text.startsWith('<?xml')) return 'an XML file';
  if (isMostlyText(b.subarray(0, 512))) return 'a plain text file';
  return undefined;
}

function isMostlyText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  let printable = 0;
  for (const c of b) if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 0xc2) printable++;
  return printable / b.length > 0.97;
}
