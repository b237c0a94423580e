/**
 * Where a manual's files live: under FILES_DIR (default DATA_DIR; a shared volume when several
 * machines serve one library). Upload names never reach these paths: only generated ids do.
 *
 * The layout is addressed by manual id, and the database binds each id to the sha256 of its PDF
 * (unique), so every path has one content: the source is written once by the server that accepted
 * it, page images only by the worker holding the job's lease (or re-rendered, identically, from
 * the source), each through a temp name of its own and an atomic rename — two servers never
 * write the same path differently, and a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ensureWritableDir } from '../runtime/data-dir';
import { getConfig } from '../config';

/** FILES_DIR (default DATA_DIR) joined with `parts`. */
export function filesDir(...parts: string[]): string {
  return path.join(getConfig().filesDir, ...parts);
}

/** filesDir(...parts), created if needed; throws a clear error when it is not writable. */
export function ensureFilesDir(...parts: string[]): string {
  return ensureWritableDir(filesDir(...parts), 'FILES_DIR');
}

export const manualDir = (id: string) => filesDir('manuals', assertId(id));
export const manualSourcePath = (id: string) => path.join(manualDir(id), 'source.pdf');
export const pageImagePath = (id: string, page: number) => path.join(manualDir(id), 'pages', `${page}.png`);
export const pageThumbPath = (id: string, page: number) => path.join(manualDir(id), 'thumbs', `${page}.webp`);

/** A temp name beside `file` that no other process or call uses (rename it into place when written). */
export const tempPathFor = (file: string) => `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

function assertId(id: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new Error(`invalid manual id: ${JSON.stringify(id).slice(0, 80)}`);
  return id;
}
