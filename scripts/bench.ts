/**
 * `npm run bench -- [--json] [--sizes 1000,10000,100000] [--manuals DIR] [--queries N] [--skip ingest,large,search,server] [--in-process]`
 *
 * Ingest throughput (text and OCR pages/s), search latency p50/p95 per tool at each corpus size
 * (a synthetic corpus grown from real chunks in a scratch LanceDB), time from submit to the first
 * streamed event and to the answer through the running server on loopback, and peak RSS.
 * --json prints one object:
 *   {"ingest": {"text_pages_per_s", "ocr_pages_per_s", "ocr_engine", "ocr_pages_per_s_tesseract_js", "ocr_engine_ratio", "ocr_bare_engine",
 *    "large": {"pages", "pages_per_s", "worker_rss_mb"}}, "search": {"<tool>": {"<chunks>": {"p50_ms", "p95_ms"}}},
 *    "first_event_ms": {"p50", "p95"}, "answer_ms": {"p50", "p95"}, "rss_mb", ...extras}
 */
import path from 'node:path';
import { BENCH_USAGE, parseBenchArgs, UsageError } from '../lib/eval/args';
import { renderBench } from '../lib/eval/bench/render';
import { runBench } from '../lib/eval/bench/run';

const ROOT = path.resolve(import.meta.dirname, '..');

async function main() {
  let args;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${BENCH_USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(BENCH_USAGE);
    return;
  }
  if (args.json) console.log = console.info = console.debug = console.error;
  const report = await runBench({
    root: ROOT,
    sizes: args.sizes,
    manuals: args.manuals,
    queries: args.queries,
    turns: 10,
    maxPages: 10_000,
    skip: args.skip,
    inProcess: args.inProcess,
    log: (m) => console.error(`[bench] ${m}`),
  });
  process.stdout.write(args.json ? `${JSON.stringify(report)}\n` : `${renderBench(report)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
