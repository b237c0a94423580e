import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeOrphanedUploads } from './orphaned-uploads';

describe('removeOrphanedUploads', () => {
  it('removes .part files left in DATA_DIR/uploads and nothing else', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-orphans-'));
    const uploads = path.join(dataDir, 'uploads');
    fs.mkdirSync(uploads);
    fs.writeFileSync(path.join(uploads, 'a.part'), 'x');
    fs.writeFileSync(path.join(uploads, 'b.part'), 'y');
    fs.writeFileSync(path.join(uploads, 'keep.txt'), 'z');
    expect(removeOrphanedUploads(dataDir)).toBe(2);
    expect(fs.readdirSync(uploads)).toEqual(['keep.txt']);
    expect(removeOrphanedUploads(path.join(dataDir, 'missing'))).toBe(0);
    fs.rmSync(dataDir, { recursive: true });
  });
});
