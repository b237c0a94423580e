import fs from 'node:fs';
import path from 'node:path';
import { getConfig } from '../config';

/** DATA_DIR (default ./data): everything the app writes lives under it. */
export function dataDir(...parts: string[]): string {
  return path.join(getConfig().dataDir, ...parts);
}

/** Creates DATA_DIR (and a sub-folder) if needed and proves it is writable; throws a clear error if not. */
export function ensureDataDir(...parts: string[]): string {
  return ensureWritableDir(dataDir(...parts), 'DATA_DIR');
}

/** Creates `dir` if needed and proves it is writable; else throws "`setting` is not writable: dir (code)". */
export function ensureWritableDir(dir: string, setting: string): string {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    throw new Error(`${setting} is not writable: ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return dir;
}

export function isDataDirWritable(): { ok: boolean; path: string; error?: string } {
  const dir = getConfig().dataDir;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-probe-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return { ok: true, path: dir };
  } catch (err) {
    return { ok: false, path: dir, error: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
}
