/**
 * `npm run lint:dev-strings`: fails when product code (actions/, app/, components/, lib/, tools/,
 * skills/ and the root's code files; test files excepted) holds a string taken from an eval
 * question: its first 50 characters, a letters-and-digits code from the question or its answer
 * keywords, its manual's maker or model word, a public manual's maker or model word, or in skills/
 * a 4+ digit code. Questions: the repo's own eval/*.jsonl always, and ../shared/eval/*.jsonl when
 * it is there. Rules in scripts/dev-strings.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkTree } from './dev-strings';

const root = path.resolve(import.meta.dirname, '..');
const shared = path.resolve(root, '../shared');

/**
 * Hits that are logic rather than leftovers, by file and matched string (lower case), with the
 * reason: each one is a decision, not a way round the rule.
 */
const ALLOWED: Record<string, { strings: string[]; why: string }> = {
  'lib/eval/bench/run.ts': {
    strings: ['esp32-poe', 'esp32', 'poe', 'pixhawk', 'olimex', 'tek', 'metra', 'ds009', 'm1t382', 'rs232'],
    why: 'the bench ingests real manuals by their file names',
  },
};

function main(): number {
  if (!fs.existsSync(path.join(shared, 'eval'))) console.log(`lint:dev-strings: ${shared}/eval does not exist; checking the repo's own eval/ questions only`);
  const allowed = Object.fromEntries(Object.entries(ALLOWED).map(([file, { strings }]) => [file, strings]));
  const { files, needles, hits } = checkTree(root, shared, allowed);
  for (const { file, line, needle } of hits) console.log(`${file}:${line}: "${needle.text}" (${needle.rule} of ${needle.from})`);
  if (hits.length === 0) {
    console.log(`lint:dev-strings: ${files} product files hold no string from ${needles} eval-question and manual-title needles`);
    return 0;
  }
  console.error(`\n${hits.length} string(s) from eval questions in product code: use invented examples (lib/sample's Acme HX-200).`);
  return 1;
}

process.exit(main());
