/** Command-line parsing of `npm run eval` and `npm run bench` (node:util parseArgs, strict). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CV_SCHEMES, type CvScheme } from './cv';
import type { NamedDevicePolicy } from '../agent';
import type { LlmMode } from './llm-mode';
import { STRATEGIES, type StrategyName } from './report';
import type { EvalOptions } from './run';

export class UsageError extends Error {}

export const EVAL_USAGE = `usage: npm run eval -- --qa FILE.jsonl --manuals DIR [--qa FILE --manuals DIR …] [--k 5]
                      [--strategy ${STRATEGIES.join(',')}] [--cv [--cv-scheme manual|set]] [--train]
                      [--limit N] [--manual NAME] [--data-dir DIR] [--replay FILE | --record FILE] [--json]
                      [--named-device scope|first|off] [--unnamed]

  --qa FILE        questions, one JSON object per line (../shared/eval/README.md); repeatable
  --manuals DIR    the PDFs the questions are about; all are ingested (already ingested ones are skipped); repeatable
  --cv             also report the ranker and the agent under leave-one-manual-out cross-validation:
                   each manual's questions ranked by a model trained on the other manuals' questions
  --cv-scheme S    the folds of --cv: manual (default), or set: each question set ranked by a model trained
                   on the other sets, sets that share a manual held out together
  --train          train the page ranker on every answerable question and write lib/ranking/weights.json
  --k N            pages retrieved per question (default 5); Recall@1/3/5 and MRR over the top k
  --strategy LIST  comma-separated, default all: ${STRATEGIES.join(', ')}
  --limit N        only the first N questions (after --manual)
  --manual NAME    only the questions about this manual file
  --data-dir DIR   use (and keep) this DATA_DIR, e.g. /tmp/mc-eval; default: a scratch folder
  --replay FILE    answer LLM calls from a recording (no key needed); use the same --data-dir as the recording
  --record FILE    use the configured LLM and record every call to FILE
  --json           print one JSON object on stdout (logs go to stderr)
  --named-device P what the agent does with a device the question names (or the chat's device):
                   first (its pages first in the final ranking, the default), scope (search its
                   manuals alone) or off
  --unnamed        also ask every single-turn question that names its own device without its device's
                   name (maker, models, name from the manual's profile); rows say variant named / unnamed

  Questions with "session" and "turn" are asked in turn order as one chat (device context, follow-ups).`;

const NAMED_DEVICE_POLICIES: readonly NamedDevicePolicy[] = ['scope', 'first', 'off'];

/** What runEval takes (less the logger), with the switches settled, and what the script itself does. */
export interface EvalArgs extends Omit<EvalOptions, 'log' | 'cv' | 'cvScheme' | 'train'> {
  cv: boolean;
  cvScheme: CvScheme;
  train: boolean;
  json: boolean;
  help: boolean;
}

function positiveInt(name: string, raw: string | undefined, fallback?: number): number | undefined {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

/** parseArgs with no positionals and no unknown options; what it refuses becomes a UsageError. */
function parseStrict<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function parseStrategies(raw: string | undefined): StrategyName[] {
  if (!raw || raw.trim() === 'all') return [...STRATEGIES];
  const names = [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((n) => !(STRATEGIES as readonly string[]).includes(n));
  if (unknown.length) throw new UsageError(`unknown strategy ${unknown.join(', ')} (choose from ${STRATEGIES.join(', ')})`);
  if (names.length === 0) throw new UsageError('--strategy needs at least one name');
  return names as StrategyName[];
}

export function parseEvalArgs(argv: string[]): EvalArgs {
  const values = parseStrict(argv, {
    qa: { type: 'string', multiple: true },
    manuals: { type: 'string', multiple: true },
    cv: { type: 'boolean', default: false },
    'cv-scheme': { type: 'string' },
    train: { type: 'boolean', default: false },
    k: { type: 'string' },
    strategy: { type: 'string' },
    strategies: { type: 'string' },
    limit: { type: 'string' },
    manual: { type: 'string' },
    'data-dir': { type: 'string' },
    replay: { type: 'string' },
    record: { type: 'string' },
    json: { type: 'boolean', default: false },
    'named-device': { type: 'string' },
    unnamed: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  const named = values['named-device'] ?? 'first';
  if (!(NAMED_DEVICE_POLICIES as readonly string[]).includes(named)) throw new UsageError(`--named-device must be one of ${NAMED_DEVICE_POLICIES.join(', ')}, got "${named}"`);
  if (!help && (!values.qa?.length || !values.manuals?.length)) throw new UsageError('--qa and --manuals are required');
  if (values.replay && values.record) throw new UsageError('use only one of --replay and --record');
  const cvScheme = (values['cv-scheme'] ?? 'manual') as CvScheme;
  if (!CV_SCHEMES.includes(cvScheme)) throw new UsageError(`--cv-scheme must be one of ${CV_SCHEMES.join(', ')}, got "${values['cv-scheme']}"`);
  if (values['cv-scheme'] !== undefined && values.cv !== true) throw new UsageError('--cv-scheme needs --cv');
  const llm: LlmMode = values.replay ? { kind: 'replay', file: values.replay } : values.record ? { kind: 'record', file: values.record } : { kind: 'offline' };
  return {
    qa: values.qa ?? [],
    manuals: values.manuals ?? [],
    cv: values.cv === true,
    cvScheme,
    train: values.train === true,
    k: positiveInt('k', values.k, 5)!,
    strategies: parseStrategies(values.strategy ?? values.strategies),
    limit: positiveInt('limit', values.limit),
    manual: values.manual,
    dataDir: values['data-dir'],
    namedDevice: named as NamedDevicePolicy,
    unnamed: values.unnamed === true,
    llm,
    json: values.json === true,
    help,
  };
}

export const BENCH_USAGE = `usage: npm run bench -- [--json] [--sizes 1000,10000,100000] [--manuals DIR] [--queries N]
                       [--skip ingest,search,server] [--in-process]

  --sizes LIST    synthetic corpus sizes in chunks (default 1000,10000,100000)
  --manuals DIR   real manuals for ingest throughput and corpus seeds (default ../shared/manuals, else the sample)
  --queries N     timed queries per tool and size (default 30)
  --skip LIST     leave out parts: ingest, large (the generated 2,000-page manual), search, server
  --in-process    time chat turns with runTurn in this process instead of through the server
  --json          print one JSON object on stdout (logs go to stderr)`;

const BENCH_PARTS = ['ingest', 'large', 'search', 'server'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export interface BenchArgs {
  json: boolean;
  sizes: number[];
  manuals?: string;
  queries: number;
  skip: BenchPart[];
  inProcess: boolean;
  help: boolean;
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const values = parseStrict(argv, {
    json: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    manuals: { type: 'string' },
    queries: { type: 'string' },
    skip: { type: 'string' },
    'in-process': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const sizes = (values.sizes ?? '1000,10000,100000').split(',').map((s) => s.trim().replace(/_/g, '')).filter(Boolean).map((s) => {
    const m = /^(\d+(?:\.\d+)?)(k)?$/i.exec(s);
    const n = m ? Math.round(Number(m[1]) * (m[2] ? 1000 : 1)) : NaN;
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--sizes: "${s}" is not a chunk count`);
    return n;
  });
  const skip = (values.skip ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const bad = skip.filter((s) => !(BENCH_PARTS as readonly string[]).includes(s));
  if (bad.length) throw new UsageError(`--skip: unknown part ${bad.join(', ')} (choose from ${BENCH_PARTS.join(', ')})`);
  return {
    json: values.json === true,
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    manuals: values.manuals,
    queries: positiveInt('queries', values.queries, 30)!,
    skip: skip as BenchPart[],
    inProcess: values['in-process'] === true,
    help: values.help === true,
  };
}
