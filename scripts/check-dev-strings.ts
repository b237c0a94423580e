/**
 * `npm run lint:dev-strings`: fails when product code (actions/, app/, components/, lib/, tools/,
 * skills/ and the root's proxy.ts, instrumentation.ts, next.config.mjs; test files excepted) holds
 * a string taken from an eval question: its first 50 characters, a letters-and-digits code from the
 * question or its answer keywords, its manual's maker or model word, or in skills/ a 4+ digit code.
 * Questions: the repo's own eval/*.jsonl always, and ../shared/eval/*.jsonl when it is there.
 * Rules in scripts/dev-strings.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readQa } from '../lib/eval/qa';
import { findHits, isProductFile, needlesOf, PRODUCT_DIRS, PRODUCT_ROOT_FILES, type Needle } from './dev-strings';

const root = path.resolve(import.meta.dirname, '..');
const shared = path.resolve(root, '../shared/eval');

/**
 * Hits that are logic rather than leftovers, by file and matched string (lower case), with the
 * reason: each one is a decision, not a way round the rule.
 */
const ALLOWED: Record<string, { strings: string[]; why: string }> = {
  'lib/eval/bench/run.ts': {
    strings: ['esp32-poe', 'esp32', 'poe', 'pixhawk', 'olimex', 'tek', 'metra'],
    why: 'the bench ingests real manuals by their file names',
  },
};

/** Reference answers by id (lib/eval/qa.ts) are answers, not questions: they hold no question to take needles from. */
const REFERENCE_FILES = new Set(['reference-answers.jsonl']);

const jsonlIn = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl') && !REFERENCE_FILES.has(f))
        .map((f) => path.join(dir, f))
    : [];

function main(): number {
  if (!fs.existsSync(shared)) console.log(`lint:dev-strings: ${shared} does not exist; checking the repo's own eval/ questions only`);
  const needles: Needle[] = [...jsonlIn(shared), ...jsonlIn(path.join(root, 'eval'))].flatMap((file) => {
    const name = path.relative(root, file);
    return readQa(file).flatMap((q) => needlesOf(q, name));
  });
  const files = [
    ...PRODUCT_ROOT_FILES,
    ...PRODUCT_DIRS.flatMap((dir) =>
      fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}${f.split(path.sep).join('/')}`),
    ),
  ].filter((f) => isProductFile(f) && fs.statSync(path.join(root, f)).isFile());
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    if (text.includes('\0')) continue; // binary
    for (const { line, needle } of findHits(file, text, needles)) {
      if (ALLOWED[file]?.strings.includes(needle.text.toLowerCase())) continue;
      console.log(`${file}:${line}: "${needle.text}" (${needle.rule} of ${needle.from})`);
      count++;
    }
  }
  if (count === 0) {
    console.log(`lint:dev-strings: ${files.length} product files hold no string from ${needles.length} eval-question needles`);
    return 0;
  }
  console.error(`\n${count} string(s) from eval questions in product code: use invented examples (lib/sample's Acme HX-200).`);
  return 1;
}

process.exit(main());
