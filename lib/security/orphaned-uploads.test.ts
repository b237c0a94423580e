import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeOrphans } from './orphaned-uploads';

function filesDirWithLeftovers() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-orphans-'));
  const uploads = path.join(dir, 'uploads');
  fs.mkdirSync(uploads);
  fs.writeFileSync(path.join(uploads, 'a.part'), 'x');
  fs.writeFileSync(path.join(uploads, 'b.part'), 'y');
  fs.writeFileSync(path.join(uploads, 'keep.txt'), 'z');
  for (const id of ['kept-manual', 'deleted-manual']) {
    fs.mkdirSync(path.join(dir, 'manuals', id, 'pages'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'manuals', id, 'pages', '1.png'), 'png');
  }
  return dir;
}

describe('removeOrphans', () => {
  it('removes .part files and folders of manuals that no longer exist, and nothing else', () => {
    const dir = filesDirWithLeftovers();
    expect(removeOrphans(dir, (id) => id === 'kept-manual')).toEqual({ uploads: 2, manuals: 1 });
    expect(fs.readdirSync(path.join(dir, 'uploads'))).toEqual(['keep.txt']);
    expect(fs.readdirSync(path.join(dir, 'manuals'))).toEqual(['kept-manual']);
    expect(fs.readFileSync(path.join(dir, 'manuals', 'kept-manual', 'pages', '1.png'), 'utf8')).toBe('png');
    expect(removeOrphans(path.join(dir, 'missing'), () => false)).toEqual({ uploads: 0, manuals: 0 });
    fs.rmSync(dir, { recursive: true });
  });

  it('leaves entries changed since `changedBefore` (another server may be writing them)', () => {
    const dir = filesDirWithLeftovers();
    const old = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(dir, 'uploads', 'a.part'), old, old);
    expect(removeOrphans(dir, (id) => id === 'kept-manual', Date.now() - 3600_000)).toEqual({ uploads: 1, manuals: 0 });
    expect(fs.readdirSync(path.join(dir, 'uploads')).sort()).toEqual(['b.part', 'keep.txt']);
    expect(fs.readdirSync(path.join(dir, 'manuals')).sort()).toEqual(['deleted-manual', 'kept-manual']);
    fs.rmSync(dir, { recursive: true });
  });
});
