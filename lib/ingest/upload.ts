/**
 * Streams an uploaded body to a temp file under FILES_DIR/uploads (beside the manuals, so it is
 * renamed into place, never copied), hashing as it goes and stopping
 * at the size limit, so a 200 MB manual never sits in memory and an oversized one costs nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { freeBytes, minFreeBytes } from '../runtime/disk-space';
import { fileNameText } from '../device/tokens';
import { ingestErrors } from './errors';
import { ensureFilesDir } from './paths';

export interface SavedUpload {
  tmpPath: string;
  sha256: string;
  size: number;
}

type Body = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** How many bytes a streaming upload writes between two reads of the disk's free space (statfs). */
const ROOM_CHECK_BYTES = 4 * 1024 * 1024;

/** The disk reserve an upload must leave free while it streams. */
interface Room {
  dir: string;
  /** MC_MIN_FREE_MB in bytes. */
  reserve: number;
  /** Bytes this upload may write: the free space when it started, less the reserve. */
  budget: number;
}

/**
 * `declaredBytes` (the request's Content-Length, when known) lets a file that cannot fit be
 * refused before a byte of it is read; the reserve (MC_MIN_FREE_MB) is required either way, and
 * enforced again as the bytes arrive — a chunked upload declares no size — against this upload's
 * budget and, every few MB, the disk's free space (other uploads write too).
 */
export async function saveUpload(body: Body, maxBytes: number, declaredBytes?: number): Promise<SavedUpload> {
  const dir = ensureFilesDir('uploads');
  if (declaredBytes !== undefined && declaredBytes > maxBytes) throw ingestErrors.tooLarge(declaredBytes, maxBytes);
  assertRoomFor(dir, declaredBytes ?? 0);
  const reserve = minFreeBytes();
  const room = reserve > 0 ? { dir, reserve, budget: freeBytes(dir) - reserve } : undefined;
  return writeUpload(body, path.join(dir, `${randomUUID()}.part`), maxBytes, 'wx', room);
}

/** Throws disk_full when writing `bytes` under `dir` would leave less than the reserve free. */
export function assertRoomFor(dir: string, bytes: number): void {
  const needed = bytes + minFreeBytes();
  const free = freeBytes(dir);
  if (free < needed) throw ingestErrors.notEnoughSpace(needed, free);
}

/**
 * Streams `body` into `file` (created, never overwritten, unless `flags` says otherwise),
 * hashing as it goes. On any failure (too large, empty, a write error such as ENOSPC) the partial
 * file is removed before the error is thrown.
 */
export async function writeUpload(body: Body, file: string, maxBytes: number, flags = 'wx', room?: Room): Promise<SavedUpload> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file, { flags });
  // A write error arrives as an event; without a listener it would crash the process.
  let writeError: Error | undefined;
  out.on('error', (err) => (writeError ??= err));
  let size = 0;
  let checkedAt = 0;
  try {
    const iterable = Symbol.asyncIterator in body ? (body as AsyncIterable<Uint8Array>) : streamToIterable(body as ReadableStream<Uint8Array>);
    for await (const chunk of iterable) {
      if (writeError) throw writeError;
      size += chunk.byteLength;
      // Stop reading at the limit: an oversized upload costs no more than the limit in disk and time.
      if (size > maxBytes) throw ingestErrors.tooLarge(size, maxBytes);
      // Stop reading at the reserve: past this upload's budget, or when the disk (which other
      // writers share) has less than the reserve free.
      if (room && size > room.budget) throw ingestErrors.reserveReached(room.reserve);
      if (room && size - checkedAt >= ROOM_CHECK_BYTES) {
        checkedAt = size;
        if (freeBytes(room.dir) < room.reserve) throw ingestErrors.reserveReached(room.reserve);
      }
      hash.update(chunk);
      // `once` rejects on 'error', so a failed write cannot leave us waiting for a 'drain' forever.
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    if (size === 0) throw ingestErrors.empty();
    return { tmpPath: file, sha256: hash.digest('hex'), size };
  } catch (err) {
    out.destroy();
    // Once closed, the file exists if it ever will (an open may still have been pending): remove it.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    fs.rmSync(file, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    throw code === 'ENOSPC' || code === 'EDQUOT' ? ingestErrors.diskFull(err) : err;
  }
}

async function* streamToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** A safe file name to show and store (never used as a path: files live under their manual id). */
export function safeFileName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(CONTROL_CHARS, '').trim();
  return (base || 'upload.pdf').slice(0, 200);
}

/** A display title from an untrusted file name: no path, no control characters, bounded length. */
export function titleFromFileName(fileName: string): string {
  const cleaned = fileNameText(safeFileName(fileName)).replace(/\s+/g, ' ').trim();
  return (cleaned || 'Untitled manual').slice(0, 160);
}
