import fs from 'node:fs';
import path from 'node:path';

/**
 * What a crash or a kill leaves under FILES_DIR that no one will ever finish or read: `.part`
 * files of uploads cut off half-way (uploads/), and folders of manuals that no longer exist
 * (manuals/<id>: a manual deleted while its ingest was still writing pages). The server removes
 * them on every start, before it serves (lib/server/startup.ts). Only entries last changed before
 * `changedBefore` go: where other servers share the folder, theirs may still be in flight.
 */
export function removeOrphans(filesDir: string, manualExists: (id: string) => boolean, changedBefore = Infinity): { uploads: number; manuals: number } {
  const stale = (p: string) => (fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < changedBefore;
  const entries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []).map((name) => ({ name, file: path.join(dir, name) }));
  let uploads = 0;
  for (const { name, file } of entries(path.join(filesDir, 'uploads'))) {
    if (!name.endsWith('.part') || !stale(file)) continue;
    fs.rmSync(file, { force: true });
    uploads++;
  }
  let manuals = 0;
  for (const { name, file } of entries(path.join(filesDir, 'manuals'))) {
    if (manualExists(name) || !stale(file)) continue;
    fs.rmSync(file, { recursive: true, force: true });
    manuals++;
  }
  return { uploads, manuals };
}
