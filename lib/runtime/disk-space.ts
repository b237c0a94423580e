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
