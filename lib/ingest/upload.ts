/**
 * Streams an uploaded body to a temp file under DATA_DIR/uploads, hashing as it goes and stopping
 * at the size limit, so a 200 MB manual never sits in memory and an oversized one costs nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from '../data-dir';
import { ingestErrors } from './errors';

export interface SavedUpload {
  tmpPath: string;
  sha256: string;
  size: number;
}

export async function saveUpload(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, maxBytes: number): Promise<SavedUpload> {
  const dir = ensureDataDir('uploads');
  const tmpPath = path.join(dir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  const out = fs.createWriteStream(tmpPath, { flags: 'wx' });
  let size = 0;
  try {
    const iterable = Symbol.asyncIterator in body ? (body as AsyncIterable<Uint8Array>) : streamToIterable(body as ReadableStream<Uint8Array>);
    for await (const chunk of iterable) {
      size += chunk.byteLength;
      // Stop reading at the limit: an oversized upload costs no more than the limit in disk and time.
      if (size > maxBytes) throw ingestErrors.tooLarge(size, maxBytes);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    if (size === 0) throw ingestErrors.empty();
    return { tmpPath, sha256: hash.digest('hex'), size };
  } catch (err) {
    out.destroy();
    fs.rmSync(tmpPath, { force: true });
    throw err;
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
  const cleaned = safeFileName(fileName)
    .replace(/\.pdf$/i, '')
    .replace(/_+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (cleaned || 'Untitled manual').slice(0, 160);
}
