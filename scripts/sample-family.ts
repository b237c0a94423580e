/**
 * `npx tsx scripts/sample-family.ts DIR [--variants N]`: writes the generated product line of
 * near-identical manuals (lib/sample/family.ts) and its questions (family-qa.jsonl) to
 * DIR, for the eval's public mixed library:
 *   npm run eval -- --qa … --qa DIR/family-qa.jsonl --manuals ../shared/manuals … --manuals DIR
 */
import fs from 'node:fs';
import path from 'node:path';
import { familyQuestions, generateFamily } from '../lib/sample/family';

async function main() {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  const at = args.indexOf('--variants');
  const n = at >= 0 ? Number(args[at + 1]) : 6;
  if (!dir || !Number.isInteger(n) || n < 6) {
    console.error('usage: tsx scripts/sample-family.ts DIR [--variants N ≥ 6]');
    process.exit(2);
  }
  fs.mkdirSync(dir, { recursive: true });
  const family = await generateFamily(n);
  for (const f of family) fs.writeFileSync(path.join(dir, f.variant.fileName), f.pdf);
  const qa = familyQuestions(family.map((f) => f.variant));
  fs.writeFileSync(path.join(dir, 'family-qa.jsonl'), qa.map((q) => JSON.stringify(q)).join('\n') + '\n');
  console.log(`${family.length} manuals and ${qa.length} questions written to ${dir}`);
}

void main();
