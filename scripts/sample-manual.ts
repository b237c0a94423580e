/**
 * `npm run sample -- --large N [--out FILE]`: writes a generated N-page manual (text, tables,
 * figures, scanned pages) for ingest-at-scale tests instead; default FILE DATA_DIR/large-N.pdf.
 *
 * `npm run sample [-- --out DIR]`: writes the generated sample manual, its ground truth (.json)
 * and its questions in dev-qa format (.jsonl) into DIR (default DATA_DIR/sample, DATA_DIR
 * defaulting to ./data). Always regenerates; the output is deterministic, so rerunning is harmless.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import { writeSampleManual } from '../lib/sample';
import { generateLargeManual } from '../lib/sample/large';

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string', short: 'o' }, large: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help) {
    console.log('Usage: tsx scripts/sample-manual.ts [--out DIR]   (default: $DATA_DIR/sample, DATA_DIR defaults to ./data)');
    console.log('       tsx scripts/sample-manual.ts --large PAGES [--out FILE]   (a generated long manual)');
    return;
  }
  const dataDir = process.env.DATA_DIR?.trim() || 'data';
  if (values.large !== undefined) {
    const pages = Number(values.large);
    if (!Number.isInteger(pages) || pages < 1) throw new Error(`--large needs a page count, got "${values.large}"`);
    const file = path.resolve(values.out ?? path.join(dataDir, `large-${pages}.pdf`));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const pdf = await generateLargeManual({ pages });
    fs.writeFileSync(file, pdf);
    console.log(`${pages}-page manual written to ${file} (${(pdf.length / 1e6).toFixed(1)} MB)`);
    return;
  }
  const dir = path.resolve(values.out ?? path.join(dataDir, 'sample'));
  const files = await writeSampleManual(dir);
  console.log(`Sample manual written to ${dir}`);
  for (const p of [files.pdfPath, files.groundTruthPath, files.questionsPath]) console.log(`  ${path.basename(p)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
