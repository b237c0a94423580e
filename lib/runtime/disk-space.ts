/**
 * Free space on the disk that holds DATA_DIR. SQLite, LanceDB and page images that hit a full disk
 * half-way fail in confusing ways, so the app refuses up front: `npm start` does not start and an
 * upload is refused (HTTP 507) while less than MC_MIN_FREE_MB (default 200) would remain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runtimeEnv } from '../config';

const MB = 1024 * 1024;
const DEFAULT_MIN_FREE_MB = 200;

/** MC_MIN_FREE_MB in bytes; 0 turns the check off. Throws on anything but a whole number. */
export function minFreeBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = runtimeEnv('MC_MIN_FREE_MB', env);
  if (!raw) return DEFAULT_MIN_FREE_MB * MB;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`MC_MIN_FREE_MB must be a whole number of megabytes (0 = no check), got "${raw}"`);
  return n * MB;
}

/**
 * Bytes this process may still write on the filesystem of `dir` (or of its nearest existing
 * parent). Infinity when the filesystem cannot tell: then the writes themselves are the check.
 */
export function freeBytes(dir: string): number {
  let p = path.resolve(dir);
  while (!fs.existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
  try {
    const stats = fs.statfsSync(p);
    return stats.bavail * stats.bsize;
  } catch {
    return Infinity;
  }
}

export const formatMb = (bytes: number) => `${Math.floor(bytes / MB)} MB`;

/** Error codes and messages of a write that found the disk full: Node, SQLite, Postgres, LanceDB (Rust). */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);
const DISK_FULL_MESSAGE = /no space left on device|database or disk is full|disk quota exceeded|could not extend file/i;

/**
 * Whether `err` (or an error it wraps, via `cause`) says the disk is full. Routes answer these with
 * 507 and a plain sentence instead of a 500: SQLite reports SQLITE_FULL, Postgres 53100, LanceDB
 * only a message ("No space left on device (os error 28)").
 */
export function isDiskFull(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return typeof e === 'string' && DISK_FULL_MESSAGE.test(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && DISK_FULL_MESSAGE.test(message)) return true;
  }
  return false;
}

/** What a person is told when a write found the disk full (HTTP 507). */
export const DISK_FULL_MESSAGE_TEXT = 'The server’s disk is full, so nothing could be saved. Ask the administrator to free some space, then try again.';

/** The 507 every write path answers when the disk is full. */
export function diskFullResponse(): Response {
  return Response.json({ error: DISK_FULL_MESSAGE_TEXT, code: 'disk_full' }, { status: 507 });
}
