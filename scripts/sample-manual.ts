/**
 * `npm run sample [-- --out DIR]`: writes the generated sample manual, its ground truth (.json)
 * and its questions in dev-qa format (.jsonl) into DIR (default DATA_DIR/sample, DATA_DIR
 * defaulting to ./data). Always regenerates; the output is deterministic, so rerunning is harmless.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeSampleManual } from '../lib/sample';

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help) {
    console.log('Usage: tsx scripts/sample-manual.ts [--out DIR]   (default: $DATA_DIR/sample, DATA_DIR defaults to ./data)');
    return;
  }
  const dataDir = process.env.DATA_DIR?.trim() || 'data';
  const dir = path.resolve(values.out ?? path.join(dataDir, 'sample'));
  const files = await writeSampleManual(dir);
  console.log(`Sample manual written to ${dir}`);
  for (const p of [files.pdfPath, files.groundTruthPath, files.questionsPath]) console.log(`  ${path.basename(p)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
