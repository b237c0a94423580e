/**
 * The README's layer diagram is the layering `.dependency-cruiser.cjs` enforces — it names
 * every folder of lib/, each folder has a rule, and every import a rule allows points down the
 * diagram ("Imports flow one way, top to bottom").
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const rules = (createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string; comment: string }> }).forbidden;

/** lib folder → the lib folders its rule lets it import (read back from the rule's comment, which ALLOWED writes). */
const allowed = new Map(
  rules.flatMap((r): Array<[string, string[]]> => {
    const folder = /^lib-(.+)-layer$/.exec(r.name)?.[1];
    const list = /may import only lib\/\{([^}]*)\}/.exec(r.comment)?.[1];
    if (!folder || list === undefined) return [];
    return [[folder, list === 'nothing' ? [] : list.split(', ')]];
  }),
);

/** The diagram's rows that are lib/ folders, top first. */
function diagramFolders(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Architecture'));
  const block = section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
  return block.split('\n').flatMap((line) => /^lib\/([\w-]+)\//.exec(line)?.[1] ?? []);
}

const libFolders = fs
  .readdirSync(path.join(root, 'lib'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('the layer diagram', () => {
  it('names every folder of lib/ once, and each has a layer rule', () => {
    const drawn = diagramFolders();
    expect([...drawn].sort()).toEqual(libFolders);
    expect(new Set(drawn).size).toBe(drawn.length);
    expect([...allowed.keys()].sort()).toEqual(libFolders);
  });

  it('draws every allowed import pointing down', () => {
    const drawn = diagramFolders();
    const upward = drawn.flatMap((folder, i) => (allowed.get(folder) ?? []).filter((to) => drawn.indexOf(to) < i).map((to) => `lib/${folder} → lib/${to}`));
    expect(upward).toEqual([]);
  });
});
