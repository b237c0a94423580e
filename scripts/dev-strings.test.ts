/** Each rule of the dev-strings check fires, at word boundaries, and test files are skipped. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTree, deviceNamesOf, findHits, isProductFile, manualTitleWords, needlesOf, tokens, type DevQuestion } from './dev-strings';

// An invented question in the eval format (the check's own tests must not quote the real ones either).
const question: DevQuestion = {
  id: 'x01',
  question: "My Acme QZ-7 controller (board QX900-B) shows fault 4417 (E42). What's wrong?",
  answer_keywords: ['RK12 relay', 'seal', '5580'],
};
const needles = needlesOf(question, 'eval/x.jsonl');
const hits = (file: string, text: string) => findHits(file, text, needles).map((h) => `${h.line} ${h.needle.rule}: ${h.needle.text}`);

describe('dev strings', () => {
  it('tokenises at whitespace and slashes, strips surrounding punctuation and possessives, keeps inner hyphens', () => {
    expect(tokens("(QX900-B), QZ-7's E05/E06 V1.2.")).toEqual(['QX900-B', 'QZ-7', 'E05', 'E06', 'V1.2']);
  });

  it("fires on a question's first 50 characters, case-insensitively", () => {
    expect(hits('lib/a.ts', '// e.g. "my acme qz-7 controller (board qx900-b) shows fault 4417"')).toContain(
      '1 question start: My Acme QZ-7 controller (board QX900-B) shows faul',
    );
  });

  it('fires on an answer keyword of 4+ characters mixing letters and digits', () => {
    expect(hits('tools/t.ts', 'const x = 1;\n// the rk12 RELAY')).toEqual(['2 answer keyword: RK12 relay']);
    expect(hits('tools/t.ts', '// seal')).toEqual([]);
    expect(hits('tools/t.ts', '// two RK12 relays')).toEqual([]); // inside a longer token
  });

  it('fires on a question token of 4+ characters mixing letters and digits, at word boundaries only', () => {
    expect(hits('components/c.tsx', '<p>QX900-B</p>')).toEqual(['1 question token: QX900-B']);
    expect(hits('components/c.tsx', 'QX900-BC, AQX900-B')).toEqual([]);
    expect(hits('components/c.tsx', 'the qz-7')).toEqual(['1 question token: QZ-7']);
    expect(hits('components/c.tsx', 'E42')).toEqual([]); // under 4 characters
  });

  it('fires on a 4+ digit code from the question or its keywords in skills/ only', () => {
    expect(hits('skills/s.md', 'codes such as 4417 or 5580')).toEqual(['1 digit code: 4417', '1 digit code: 5580']);
    expect(hits('skills/s.md', 'code 44170, ratio 4417.5 or 1.4417')).toEqual([]); // inside longer numbers
    expect(hits('lib/a.ts', 'const port = 4417;')).toEqual([]);
  });

  it('skips test files and files outside the product folders', () => {
    for (const file of ['lib/a.test.ts', 'components/c.test.tsx', 'lib/store/testing/x.ts', 'lib/testing-store.ts', 'scripts/x.ts', 'e2e/x.ts']) {
      expect(isProductFile(file)).toBe(false);
      expect(hits(file, 'QX900-B')).toEqual([]);
    }
    expect(isProductFile('skills/s.md')).toBe(true);
  });

  it('covers actions/ and the code files at the root', () => {
    for (const file of ['actions/a.ts', 'proxy.ts', 'instrumentation.ts', 'next.config.mjs', 'vitest.config.ts'])
      expect(hits(file, 'see QX900-B')).toEqual(['1 question token: QX900-B']);
  });

  it("takes the maker and model words of the question's manual, as the question writes them", () => {
    const q: DevQuestion = { id: 'x02', question: 'Where does the Zentro QX40 keep its fuse?', answer_keywords: [], manual: 'zentro-qx40-field-guide.pdf' };
    expect(deviceNamesOf(q).sort()).toEqual(['qx40', 'zentro']);
    const named = needlesOf(q, 'eval/x.jsonl');
    expect(findHits('lib/y.ts', '// measured on the zentro pinout', named).map((h) => h.needle.rule)).toEqual(['device name']);
    expect(findHits('lib/y.ts', '// a field guide', named)).toEqual([]);
  });

  it("takes the maker and model words of a manual's title: its first word and its letters-and-digits words", () => {
    expect(manualTitleWords('zentro-qx40-field-guide.pdf')).toEqual(['zentro', 'qx40']);
    expect(manualTitleWords('docs/Kelvo_Tx-9_Service_Notes_1994.pdf')).toEqual(['kelvo']);
  });
});

describe('checkTree, on a tree of files', () => {
  /** A repository with an invented question in eval/ and, when `shared`, a shared folder with a manual. */
  function tree(files: Record<string, string>): { root: string; shared: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-dev-strings-'));
    const root = path.join(dir, 'repo');
    const all: Record<string, string> = {
      'repo/eval/x-qa.jsonl': `${JSON.stringify({ id: 'x01', manual: 'zentro-qx40-field-guide.pdf', question: 'Where does the Zentro QX40 keep its fuse?', answer_keywords: ['F7B2 holder'], pages: [3], kind: 'lookup' })}\n`,
      'repo/lib/ok.ts': 'export const x = 1;\n',
      ...files,
    };
    for (const [file, text] of Object.entries(all)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return { root, shared: path.join(dir, 'shared') };
  }
  const found = (t: { root: string; shared: string }) => checkTree(t.root, t.shared).hits.map((h) => `${h.file}:${h.line} ${h.needle.rule}: ${h.needle.text}`);

  it("passes a clean tree, reading the repo's eval/ with no shared folder", () => {
    const t = tree({});
    expect(fs.existsSync(t.shared)).toBe(false);
    const check = checkTree(t.root, t.shared);
    expect(check.hits).toEqual([]);
    expect(check.needles).toBeGreaterThan(0);
  });

  it('fails on a string planted in lib/, actions/ or a root file', () => {
    const t = tree({ 'repo/lib/a.ts': '// the f7b2 holder\n', 'repo/actions/b.ts': '// see the QX40\n', 'repo/proxy.ts': "const maker = 'zentro';\n" });
    expect(found(t).sort()).toEqual(['actions/b.ts:1 question token: QX40', 'lib/a.ts:1 answer keyword: F7B2 holder', 'proxy.ts:1 device name: zentro']);
  });

  it("fails on a maker or model word of a shared manual's title that no question names", () => {
    const t = tree({ 'shared/manuals9/kelvo-tx900-service-notes.pdf': '%PDF-1.4\n', 'repo/components/c.tsx': 'export const label = "Kelvo";\n' });
    expect(found(t)).toEqual(['components/c.tsx:1 manual title: kelvo']);
  });
});
