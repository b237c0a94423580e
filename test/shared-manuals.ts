import fs from 'node:fs';
import path from 'node:path';

/** ../shared/manuals: real manuals for integration tests (never copied into the repo). */
export const SHARED_MANUALS_DIR = path.resolve(import.meta.dirname, '..', '..', 'shared', 'manuals');

export function sharedManual(name: string): string {
  return path.join(SHARED_MANUALS_DIR, name);
}

export const hasSharedManuals = fs.existsSync(SHARED_MANUALS_DIR);
