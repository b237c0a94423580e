/**
 * `npm run eval -- --qa FILE.jsonl --manuals DIR [--k 5] [--strategy a,b] [--limit N] [--manual NAME]
 *                  [--data-dir DIR] [--replay FILE | --record FILE] [--json]`
 *
 * Ingests the manuals (skipping ones already in --data-dir), runs every question through each
 * strategy (baseline, bm25, dense, hybrid, multivector, agent) and scores retrieval (page
 * Recall@1/3/5, MRR), answers (keyword hit rate), refusals and latency; see lib/eval/report.ts
 * for the --json shape. Logs go to stderr; with --json, stdout holds exactly one JSON object.
 */
import { EVAL_USAGE, parseEvalArgs, UsageError } from '../lib/eval/args';
import { bestStrategy, missesAt5, renderText } from '../lib/eval/report';
import { runEval } from '../lib/eval/run';

async function main() {
  let args;
  try {
    args = parseEvalArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${EVAL_USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(EVAL_USAGE);
    return;
  }
  // Libraries log with console.log here and there; in --json mode stdout is the report only.
  if (args.json) console.log = console.info = console.debug = console.error;
  const log = (m: string) => console.error(`[eval] ${m}`);
  const report = await runEval({ ...args, log });
  if (args.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    process.stdout.write(`${renderText(report)}\n`);
    const best = bestStrategy(report);
    if (best) {
      const misses = missesAt5(report.questions[best]);
      process.stdout.write(
        `\nbest strategy by MRR: ${best}; its R@5 misses: ${misses.map((m) => `${m.id} (${m.rank === null ? 'not found' : `rank ${m.rank}`})`).join(', ') || 'none'}\n`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
