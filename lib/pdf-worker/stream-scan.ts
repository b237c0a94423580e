/**
 * Decompression-bomb check: inflates every Flate stream of a PDF, counting the output, and stops
 * as soon as one stream or the whole file expands past its cap. pdf.js has no such limit (it
 * inflates a 1 MB page into 1 GB of operators and keeps it), so the check runs before pdf.js sees
 * the file. It runs in the PDF worker process, never in the web server.
 */
import zlib from 'node:zlib';
import { decompressionBomb, MAX_IMAGE_DECODED_BYTES, MAX_STREAM_DECODED_BYTES } from '../ingest/decode-guard';
/** Whole-file budget: 2,000 such scans, or a 500-page manual of vector drawings many times over. */
const MAX_TOTAL_INFLATED_BYTES = 4 * 1024 * 1024 * 1024;

const tooComplex = decompressionBomb;

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');

/** Throws IngestError when a Flate stream (or all of them together) inflates past the caps. */
export function assertInflatedSizeWithin(
  bytes: Uint8Array,
  caps: { perStream: number; perImage: number; total: number } = {
    perStream: MAX_STREAM_DECODED_BYTES,
    perImage: MAX_IMAGE_DECODED_BYTES,
    total: MAX_TOTAL_INFLATED_BYTES,
  },
): { streams: number; inflatedBytes: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let streams = 0;
  let at = 0;
  for (;;) {
    const kw = buf.indexOf(STREAM, at);
    if (kw < 0) break;
    at = kw + STREAM.length;
    // "endstream" contains "stream"; only a keyword preceded by the dictionary's ">>" starts data.
    if (kw >= 3 && buf.subarray(kw - 3, kw).toString('latin1') === 'end') continue;
    const dictStart = buf.lastIndexOf('<<', kw);
    const dict = dictStart >= 0 && kw - dictStart < 4096 ? buf.subarray(dictStart, kw).toString('latin1') : '';
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const end = buf.indexOf(ENDSTREAM, start);
    const data = buf.subarray(start, end < 0 ? buf.length : end);
    at = end < 0 ? buf.length : end + ENDSTREAM.length;
    if (!/\/(FlateDecode|Fl)\b/.test(dict)) continue;
    streams++;
    const cap = /\/Subtype\s*\/Image\b/.test(dict) ? caps.perImage : caps.perStream;
    const left = caps.total - total;
    const size = inflatedSize(data, Math.min(cap, left) + 1);
    if (size > cap) throw tooComplex(`a stream at byte ${kw} inflates past ${cap} bytes`);
    total += size;
    if (total > caps.total) throw tooComplex(`streams inflate past ${caps.total} bytes in total`);
  }
  return { streams, inflatedBytes: total };
}

/** Inflated length of one stream, stopping at `limit`; damaged data counts what inflated before it. */
function inflatedSize(data: Uint8Array, limit: number): number {
  try {
    return zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: limit }).length;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return limit;
    return 0; // not Flate data after all, or damaged at the start: pdf.js will judge it
  }
}
