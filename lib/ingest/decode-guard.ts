/**
 * Decompression-bomb limits enforced where pdf.js decodes the bytes.
 *
 * Why here: an upload-time scan that re-implements PDF parsing can be walked around (a filter
 * chain it does not decode, a nested dictionary it misreads, encryption it cannot undo), and each
 * gap lets a 1.5 KB file inflate to hundreds of MB inside the workers. Every stream pdf.js decodes
 * — any filter chain (Flate, LZW, ASCIIHex, ASCII85, RunLength, predictors, Brotli), after
 * decryption (RC4, AES) — grows its output through one method, `DecodeStream.ensureBuffer`, or
 * through `asyncGetBytesFromDecompressionStream` (the native inflate of Flate images). Both are
 * capped here: a stream past its cap stops decoding (the method throws), and the guarded job the
 * decode ran for (an AsyncLocalStorage context, see runGuarded) is marked; pdf.js swallows errors
 * in content streams and draws what it has, so lib/ingest/pdf.ts checks the mark after every call
 * and fails the job with the reason.
 *
 * pdf.js exports none of its stream classes. The decoder's prototype is found at run time: an
 * accessor on Object.prototype for `_rawMinBufferLength`, a field only DecodeStream's constructor
 * sets, sees the first decode stream pdf.js builds, patches its prototype and removes itself
 * before that stream decodes a byte. If a pdf.js upgrade renames the field, nothing is patched:
 * decodeGuardInstalled() says so and the bomb tests (decode-guard.test.ts) fail.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import zlib from 'node:zlib';
import { IngestError } from './errors';

const MB = 1024 * 1024;
/** No real manual's image comes near this (a 300 dpi A4 RGB scan is ~26 MB raw). */
export const MAX_IMAGE_DECODED_BYTES = 256 * MB;
/**
 * Page content, fonts, object streams: text and vector drawings, a few MB even for dense CAD
 * pages. pdf.js turns content into an operator list many times its size in memory, so this cap
 * (not the image one) is what bounds a parse of an accepted file.
 */
export const MAX_STREAM_DECODED_BYTES = 64 * MB;

/** The refusal users see, from the upload scan (lib/pdf-worker/stream-scan.ts) or a capped decode. */
export function decompressionBomb(detail: string): IngestError {
  return new IngestError(
    'corrupt',
    'This PDF expands to far more data than a manual holds (a "decompression bomb") and was refused. Re-export it from the original document.',
    { detail },
  );
}

interface GuardedJob {
  /** Set by the first stream that passed its cap while this job ran. */
  violation?: string;
}

const jobs = new AsyncLocalStorage<GuardedJob>();
/** Test hook: caps in bytes, smaller than the real ones. */
let caps = { stream: MAX_STREAM_DECODED_BYTES, image: MAX_IMAGE_DECODED_BYTES };
let installed = false;

/** Runs `work` as one guarded job: a stream decoded for it past a cap fails it (see throwIfBombed). */
export function runGuarded<T>(work: () => Promise<T>): Promise<T> {
  return jobs.run({}, work);
}

/** The decompression-bomb error when a stream decoded for the current job passed its cap. */
export function bombedError(): IngestError | undefined {
  const violation = jobs.getStore()?.violation;
  return violation ? decompressionBomb(violation) : undefined;
}

/** Throws bombedError() when there is one. */
export function throwIfBombed(): void {
  const err = bombedError();
  if (err) throw err;
}

/** Whether pdf.js's decoder is patched (after the first stream it decoded). @internal */
export function decodeGuardInstalled(): boolean {
  return installed;
}

/** Smaller caps for tests; undefined restores the real ones. @internal */
export function setDecodeCapsForTests(next?: { stream: number; image: number }): void {
  caps = next ?? { stream: MAX_STREAM_DECODED_BYTES, image: MAX_IMAGE_DECODED_BYTES };
}

interface PdfjsDict {
  get(key: string): unknown;
}
interface DecodeStreamLike {
  dict?: PdfjsDict;
  stream: { reset(): void; isAsync: boolean; asyncGetBytes(): Promise<Uint8Array | null>; getBytes(): Uint8Array };
}

function capOf(s: DecodeStreamLike): { cap: number; what: string } {
  let subtype: unknown;
  try {
    subtype = s.dict?.get('Subtype');
  } catch {
    // a damaged dictionary: the tighter cap applies
  }
  const image = (subtype as { name?: unknown } | undefined)?.name === 'Image';
  return image ? { cap: caps.image, what: 'an image' } : { cap: caps.stream, what: 'a content, font or object stream' };
}

function refuse(what: string, cap: number): never {
  const detail = `${what} decodes past ${Math.round(cap / MB)} MB`;
  const job = jobs.getStore();
  if (job) job.violation ??= detail;
  throw decompressionBomb(detail);
}

function patch(proto: Record<string, unknown>): void {
  const ensureBuffer = proto.ensureBuffer;
  const viaDecompressionStream = proto.asyncGetBytesFromDecompressionStream;
  if (typeof ensureBuffer !== 'function' || typeof viaDecompressionStream !== 'function') {
    throw new Error('pdf.js changed: DecodeStream has no ensureBuffer/asyncGetBytesFromDecompressionStream to cap');
  }
  // `requested` is the stream's whole decoded length so far: a DecodeStream keeps all it decoded.
  proto.ensureBuffer = function (this: DecodeStreamLike, requested: number) {
    const { cap, what } = capOf(this);
    if (requested > cap) refuse(what, cap);
    return ensureBuffer.call(this, requested);
  };
  // Flate (and Brotli) images are inflated natively in one go, outside ensureBuffer: the same
  // inflate with an output cap. Data zlib rejects falls back to pdf.js's own (capped) decoder,
  // as pdf.js does when DecompressionStream fails.
  proto.asyncGetBytesFromDecompressionStream = async function (this: DecodeStreamLike, name: string) {
    this.stream.reset();
    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes();
    if (!bytes) return { decompressed: null, compressed: bytes };
    const { cap, what } = capOf(this);
    const maxOutputLength = cap + 1;
    try {
      const out =
        name === 'brotli'
          ? zlib.brotliDecompressSync(bytes, { maxOutputLength })
          : zlib.inflateSync(bytes, { maxOutputLength, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      return { decompressed: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), compressed: bytes };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') refuse(what, cap);
      return { decompressed: null, compressed: bytes };
    }
  };
  installed = true;
}

/**
 * Arms the patch (once per process, before pdf.js builds its first decode stream): called by
 * loadPdfjs, so every pdf.js in this app — PDF workers, the ingest worker, the CLI — decodes
 * under the caps.
 */
export function armDecodeGuard(): void {
  const FIELD = '_rawMinBufferLength';
  if (installed || Object.prototype.hasOwnProperty.call(Object.prototype, FIELD)) return;
  Object.defineProperty(Object.prototype, FIELD, {
    configurable: true,
    set(this: object, value: unknown) {
      // The first decode stream: remove this hook, patch its class's base prototype, then let
      // the constructor's assignment land on the instance as usual.
      delete (Object.prototype as Record<string, unknown>)[FIELD];
      let proto = Object.getPrototypeOf(this) as Record<string, unknown> | null;
      while (proto && !Object.prototype.hasOwnProperty.call(proto, 'asyncGetBytesFromDecompressionStream')) proto = Object.getPrototypeOf(proto);
      if (!proto) throw new Error('pdf.js changed: no DecodeStream prototype above a decode stream');
      patch(proto);
      Object.defineProperty(this, FIELD, { value, writable: true, enumerable: true, configurable: true });
    },
  });
}
