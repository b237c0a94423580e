/**
 * Product code must not encode knowledge taken from the evaluation questions or their manuals.
 * These are the rules behind `npm run lint:dev-strings` (scripts/check-dev-strings.ts prints what
 * `checkTree` finds). A question, and a public manual's title, yield needles; a product file's
 * line holding a needle (case-insensitive, and for tokens not inside a longer alphanumeric token)
 * is a hit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileNameText } from '../lib/device/tokens';
import { readQa } from '../lib/eval/qa';

/** The fields of an eval question (../shared/eval/README.md) the rules use. */
export interface DevQuestion {
  id: string;
  question: string;
  answer_keywords: string[];
  /** The manual's file name: its maker and model words are needles too. */
  manual?: string;
}

export type DevRule = 'question start' | 'answer keyword' | 'question token' | 'digit code' | 'device name' | 'manual title';

export interface Needle {
  text: string;
  rule: DevRule;
  /** `file:id` of the question it came from. */
  from: string;
  /** Digit-only codes are checked in skills/ only: elsewhere 4-digit numbers are ordinary constants. */
  skillsOnly: boolean;
}

export interface Hit {
  line: number;
  needle: Needle;
}

export const PRODUCT_DIRS = ['actions/', 'app/', 'components/', 'lib/', 'tools/', 'skills/'];

/** Code at the repository's root (proxy.ts, instrumentation.ts, the tools' configs): every .ts, .mts and .mjs file there. */
const isRootCode = (file: string) => !file.includes('/') && /\.(ts|mts|mjs)$/.test(file) && !file.endsWith('.d.ts');

/** Test files may quote the questions: `*.test.ts(x)`, anything under a `testing/` folder, `testing*.ts`. */
export function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || /(^|\/)testing\//.test(file) || /(^|\/)testing[^/]*\.ts$/.test(file);
}

/** Repo-relative path (forward slashes) of a file the rules apply to. */
export function isProductFile(file: string): boolean {
  return (isRootCode(file) || PRODUCT_DIRS.some((dir) => file.startsWith(dir))) && !isTestFile(file);
}

/**
 * Words split at whitespace and at slashes (which list alternatives: E05/E06), surrounding
 * punctuation and a possessive 's stripped, inner hyphens and dots kept (HX-200, V1.2).
 */
export function tokens(text: string): string[] {
  return text
    .split(/[\s/]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/i, ''))
    .filter(Boolean);
}

const mixesLettersAndDigits = (s: string) => s.length >= 4 && /\p{L}/u.test(s) && /\p{N}/u.test(s);
const digitCode = (s: string) => /^\d{4,}$/.test(s);

export function needlesOf(q: DevQuestion, file: string): Needle[] {
  const from = `${file}:${q.id}`;
  const needle = (text: string, rule: DevRule, skillsOnly = false): Needle => ({ text, rule, from, skillsOnly });
  const out = [needle(q.question.slice(0, 50), 'question start')];
  for (const k of q.answer_keywords) if (mixesLettersAndDigits(k)) out.push(needle(k, 'answer keyword'));
  for (const t of tokens(q.question)) if (mixesLettersAndDigits(t)) out.push(needle(t, 'question token'));
  for (const t of [...tokens(q.question), ...q.answer_keywords.flatMap(tokens)]) if (digitCode(t)) out.push(needle(t, 'digit code', true));
  for (const name of deviceNamesOf(q)) out.push(needle(name, 'device name'));
  return out;
}

/**
 * Maker and model words of the question's manual: the words of its file name that the question
 * writes as a name (a capital or a digit inside the word, past its first word), e.g. a file
 * `acme-hx200-guide.pdf` and "Does the Acme HX200 …" give "acme" and "hx200", not "guide".
 */
export function deviceNamesOf(q: DevQuestion): string[] {
  if (!q.manual) return [];
  const fileWords = new Set(
    fileNameText(q.manual)
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3 && !/^\d+$/.test(w)),
  );
  const written = tokens(q.question)
    .slice(1)
    .filter((w) => /\p{Lu}|\p{N}/u.test(w))
    .flatMap((w) => w.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return [...fileWords].filter((f) => written.some((w) => w === f || (w.startsWith(f) && f.length >= 4)));
}

/**
 * Maker and model words of a public manual's title (its file name: `acme-hx200-field-guide.pdf`):
 * the first word, which names the maker or the product, and every word mixing letters and digits;
 * not the words that say what kind of document it is ("field", "guide").
 */
export function manualTitleWords(fileName: string): string[] {
  const words = fileNameText(fileName)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set([words[0], ...words.filter(mixesLettersAndDigits)].filter((w): w is string => !!w && w.length >= 3 && !/^\d+$/.test(w)))];
}

const manualNeedles = (fileName: string): Needle[] =>
  manualTitleWords(fileName).map((text) => ({ text, rule: 'manual title', from: fileName, skillsOnly: false }));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Case-insensitive. A token must not be part of a longer token: no letter or digit on either side,
 * nor a decimal's other half ("grade 5" is not in "grade 5.25"). A question start may end mid-word,
 * so it is matched anywhere.
 */
function matcher(n: Needle): RegExp {
  if (n.rule === 'question start') return new RegExp(escape(n.text), 'iu');
  return new RegExp(`(?<![\\p{L}\\p{N}]|\\p{N}[.,])${escape(n.text)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'iu');
}

/**
 * The hits of `needles` in a product file's text (1-based line numbers), one per line and string
 * (the first question that has it); none for files the rules skip.
 */
export function findHits(file: string, text: string, needles: readonly Needle[]): Hit[] {
  if (!isProductFile(file)) return [];
  const inSkills = file.startsWith('skills/');
  const applicable = needles.filter((n) => inSkills || !n.skillsOnly).map((n) => ({ n, re: matcher(n) }));
  const hits: Hit[] = [];
  text.split('\n').forEach((line, i) => {
    const seen = new Set<string>();
    for (const { n, re } of applicable) {
      if (seen.has(n.text.toLowerCase()) || !re.test(line)) continue;
      seen.add(n.text.toLowerCase());
      hits.push({ line: i + 1, needle: n });
    }
  });
  return hits;
}

/** Reference answers by id (lib/eval/qa.ts) are answers, not questions: they hold no question to take needles from. */
const REFERENCE_FILES = new Set(['reference-answers.jsonl']);

const filesIn = (dir: string, ext: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(ext)) : []);

export interface TreeCheck {
  files: number;
  needles: number;
  hits: Array<Hit & { file: string }>;
}

/**
 * Every hit in the product files under `root`. Needles come from the questions of `root`/eval,
 * always, and of `shared`/eval when it exists, and from the titles of the manuals they name and of
 * the PDFs in `shared`/manuals*. `allowed` lists, per file, matched strings (lower case) that are
 * logic rather than leftovers.
 */
export function checkTree(root: string, shared: string, allowed: Record<string, readonly string[]> = {}): TreeCheck {
  const evalDirs = [path.join(shared, 'eval'), path.join(root, 'eval')];
  const qaFiles = evalDirs.flatMap((dir) =>
    filesIn(dir, '.jsonl')
      .filter((f) => !REFERENCE_FILES.has(f))
      .map((f) => path.join(dir, f)),
  );
  const questions = qaFiles.flatMap((file) => readQa(file).map((q) => ({ q, from: path.relative(root, file) })));
  const manualDirs = filesIn(shared, '').filter((d) => /^manuals/.test(d));
  const manuals = new Set([...questions.flatMap(({ q }) => (q.manual ? [q.manual] : [])), ...manualDirs.flatMap((d) => filesIn(path.join(shared, d), '.pdf'))]);
  const needles = [...questions.flatMap(({ q, from }) => needlesOf(q, from)), ...[...manuals].flatMap(manualNeedles)];
  const files = [
    ...fs.readdirSync(root).filter(isRootCode),
    ...PRODUCT_DIRS.filter((dir) => fs.existsSync(path.join(root, dir))).flatMap((dir) =>
      fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}${f.split(path.sep).join('/')}`),
    ),
  ].filter((f) => isProductFile(f) && fs.statSync(path.join(root, f)).isFile());
  const hits: TreeCheck['hits'] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    if (text.includes('\0')) continue; // binary
    for (const hit of findHits(file, text, needles)) {
      if (!allowed[file]?.includes(hit.needle.text.toLowerCase())) hits.push({ ...hit, file });
    }
  }
  return { files: files.length, needles: needles.length, hits };
}
