import fs from 'node:fs';
import path from 'node:path';

/**
 * Uploads cut off by a crash or a kill leave `.part` files in DATA_DIR/uploads that no one will
 * ever finish; `npm start` removes them before serving. Returns how many it removed.
 */
export function removeOrphanedUploads(dataDir: string): number {
  const dir = path.join(dataDir, 'uploads');
  let removed = 0;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!name.endsWith('.part')) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
