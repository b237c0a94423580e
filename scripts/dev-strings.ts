/**
 * Issue 29: product code must not encode knowledge taken from the evaluation questions. These are
 * the pure rules behind `npm run lint:dev-strings` (scripts/check-dev-strings.ts reads the files).
 * A question yields needles; a product file's line holding a needle (case-insensitive, and for
 * tokens not inside a longer alphanumeric token) is a hit.
 */

/** The fields of an eval question (../shared/eval/README.md) the rules use. */
export interface DevQuestion {
  id: string;
  question: string;
  answer_keywords: string[];
  /** The manual's file name: its maker and model words are needles too. */
  manual?: string;
}

export type DevRule = 'question start' | 'answer keyword' | 'question token' | 'digit code' | 'device name';

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
/** Product files at the repository's root. */
export const PRODUCT_ROOT_FILES = ['proxy.ts', 'instrumentation.ts', 'next.config.mjs'];

/** Test files may quote the questions: `*.test.ts(x)`, anything under a `testing/` folder, `testing*.ts`. */
export function isTestFile(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || /(^|\/)testing\//.test(file) || /(^|\/)testing[^/]*\.ts$/.test(file);
}

/** Repo-relative path (forward slashes) of a file the rules apply to. */
export function isProductFile(file: string): boolean {
  return (PRODUCT_ROOT_FILES.includes(file) || PRODUCT_DIRS.some((dir) => file.startsWith(dir))) && !isTestFile(file);
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
    q.manual
      .replace(/\.pdf$/i, '')
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
