/**
 * Child process of the large-manual benchmark: ingests one PDF into DATA_DIR with the app's
 * pipeline (as the ingest worker would) and prints one JSON line with the outcome and this
 * process's peak RSS. A separate process so the figure is the worker's own memory, nothing else's.
 */
import { ingestFile } from '../ingest';
import { shutdownOcrEngine } from '../../ingest/pipeline';
import { closeVectorStores } from '../../providers/vectorstore';
import { closeDb } from '../../store/db';

async function main() {
  const file = process.argv[2];
  const r = await ingestFile(file);
  await shutdownOcrEngine();
  await closeVectorStores();
  await closeDb();
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify({ status: r.status, pages: r.pages, ocrPages: r.ocrPages, ms: r.ms, timings: r.timings, error: r.error, peakRssMb })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
