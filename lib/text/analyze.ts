/**
 * Text analysis shared by ingest, search, answers and the eval: one tokenizer, one stemmer, one
 * stop-word list, one unit table. Nothing here is fitted to particular questions; the linguistic
 * knowledge comes from general sources:
 *   - stemming: the Porter stemmer (`stemmer`, wooorm), English;
 *   - stop words: the union of two maintained English lists, the `stopword` package's and the
 *     Snowball project's (via `@orama/stopwords`), so "does", "not", "when" and "like", "make" all go;
 *     the offline embedder's queries also drop the comprehensive ISO list's words ("use", "want",
 *     "need"; `stopwords-iso`), which is too wide for indexes ("part", "number", "high", "open");
 *   - units: the SI prefixes × the units electrical/mechanical specifications use (./units.ts).
 */
import { eng } from 'stopword';
import { stopwords as snowball } from '@orama/stopwords/english';
import { stemmer } from 'stemmer';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };
import { isUnit } from './units';

const STOPWORDS: ReadonlySet<string> = new Set([...eng, ...snowball].map((w) => w.toLowerCase().replace(/[’']/g, '')));

/** True for a function word of the maintained English list. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

// A word: letters/digits, keeping inner dots, dashes, plus and slash so part numbers, decimals and
// compounds stay whole ("cr2032", "3.3", "hx-200", "v/div"); the parts are added by `terms`.
const WORD = /[\p{L}\p{N}]+(?:[.\-+/_][\p{L}\p{N}]+)*/gu;
const HAS_DIGIT = /\p{N}/u;
const NUMBER = /^\d+(?:\.\d+)?$/;
const GLUED_NUMBER_UNIT = /^(\d+(?:\.\d+)?)(\p{L}[\p{L}/]*\d?)$/u;

/** One dash, apostrophes closed ("doesn't" → "doesnt", "HX200's" → "HX200"); case is kept. */
function foldMarks(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212\uFE63\uFF0D]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B\u02BC`´]/g, "'")
    .replace(/([\p{L}\p{N}])'s(?![\p{L}\p{N}])/giu, '$1')
    .replace(/(\p{L})'(\p{L})/gu, '$1$2');
}

/** NFKC, lower case, one dash, apostrophes closed ("doesn't" → "doesnt", "HX200's" → "hx200"). */
export function normalize(text: string): string {
  return foldMarks(text.normalize('NFKC').toLowerCase());
}

/** Lower-case word tokens, compounds whole ("hx-200", "3.3", "cr2032"). */
export function words(text: string): string[] {
  return normalize(text).match(WORD) ?? [];
}

/** The Porter stem of a word; words with digits (codes, values, part numbers) are kept as written. */
export function stem(word: string): string {
  if (HAS_DIGIT.test(word) || word.length <= 2) return word;
  return stemmer(word);
}

/** A word that carries meaning: not a stop word, and not a lone letter (a lone digit is kept). */
function isContent(word: string): boolean {
  return !STOPWORDS.has(word) && (word.length > 1 || HAS_DIGIT.test(word));
}

// The number names a technician writes for a count ("ten boards" = "10 of these boards").
const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  'two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => [w, String(i + 2)]),
);
// "Part no." is "part number", not the stop word "no".
const ABBREVIATED_NUMBER = /\b(part|serial|order|item|catalog(?:ue)?|model|article|drawing|document|ref(?:erence)?)\s+no\./gi;
const COMPOUND = /[.\-+/_]/;
const COMPOUND_SPLIT = /[.\-+/_]+/;
const CODE_PREFIX = /^(\p{L}{2,})\d/u;

interface WordOptions {
  /** Also the letter prefix of a code ("ip65" → ip) and the bare number of a part. */
  variants: boolean;
  /** Is a term in the index? A compound the index knows is then kept whole, without its parts. */
  known?: (term: string) => boolean;
}

/** The terms word `i` of `ws` gives (see `terms`). */
function wordTerms(ws: readonly string[], i: number, opts: WordOptions): string[] {
  const w = ws[i];
  const out: string[] = [];
  const bareNumber = (x: string) => {
    const glued = x.match(GLUED_NUMBER_UNIT);
    if (glued && isUnit(glued[2])) out.push(glued[1]);
  };
  const codePrefix = (x: string) => {
    const prefix = opts.variants ? x.match(CODE_PREFIX) : null;
    if (prefix && !STOPWORDS.has(prefix[1])) out.push(prefix[1]);
  };
  const glued = w.match(GLUED_NUMBER_UNIT);
  // A value with its unit ("3.3v") is no compound to split; `terms` still splits it, as the
  // page ranker's trained weights expect.
  const compound = COMPOUND.test(w) && !NUMBER.test(w) && !(opts.variants && glued && isUnit(glued[2]));
  const unknown = !opts.known || !opts.known(stem(w));
  // A query compound the index does not know is searched by its parts only.
  if (isContent(w) && !(opts.known && unknown && compound)) out.push(stem(w));
  const next = ws[i + 1];
  if (NUMBER.test(w) && next && isUnit(next)) out.push(`${w}${next}`);
  bareNumber(w);
  if (unknown) codePrefix(w);
  if (compound && unknown) {
    for (const part of w.split(COMPOUND_SPLIT)) {
      if (!part || part === w) continue;
      if (isContent(part)) out.push(stem(part));
      if (opts.variants) {
        bareNumber(part);
        codePrefix(part);
      }
    }
  }
  return out;
}

/**
 * Index/query terms of a text, duplicates kept (term frequencies). Each word gives its stem; a
 * compound also gives its parts ("hx-200" → hx-200, hx, 200); a number with a unit gives
 * the joined form whether or not a space separates them ("3.3 V" and "3.3V" → 3.3v and 3.3).
 * The same function runs on passages and questions, so both sides meet.
 */
export function terms(text: string): string[] {
  const ws = words(text);
  return ws.flatMap((_, i) => wordTerms(ws, i, { variants: false }));
}

/**
 * Terms for matching a question to sentences and table rows (the answer writers): `terms` grouped
 * by the word they come from, plus the variants a technician and a manual write differently —
 * number names as digits ("ten" → 10), "Part no." as "part number", and a code's letter prefix
 * ("IP65" → ip65, ip) so a partial name still matches.
 *
 * With `known` (is the term among the passages?), a compound or code the passages know is
 * matched as itself only and its parts are a fallback for one they do not know, so a device name
 * like "HX-200" counts once, not as hx-200 + hx + 200. A group is one question word: coverage
 * counts it once.
 */
export function termGroups(text: string, known?: (term: string) => boolean): string[][] {
  const ws = words(text.replace(ABBREVIATED_NUMBER, '$1 number')).map((w) => NUMBER_WORDS[w] ?? w);
  const groups: string[][] = [];
  ws.forEach((_, i) => {
    const group = [...new Set(wordTerms(ws, i, { variants: true, known }))];
    if (group.length) groups.push(group);
  });
  return groups;
}

/** `termGroups` flattened: the matching terms of a sentence, row or heading. */
export function matchTerms(text: string, known?: (term: string) => boolean): string[] {
  return termGroups(text, known).flat();
}

/** The distinct terms of a text, in order of first appearance. */
export function distinctTerms(text: string): string[] {
  return [...new Set(terms(text))];
}

/** Character n-grams of a word with boundary marks, for matching words that OCR misread. */
export function charNgrams(word: string, n = 3): string[] {
  const padded = `^${word}$`;
  if (padded.length <= n) return [padded];
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(padded.slice(i, i + n));
  return out;
}

/** A word as the embedder sees it (see `tokens`). */
export interface Token {
  /** Lower case, inner punctuation dropped except decimal points ("hx200", "gndpa85u", "3.3v", "v1.2"). */
  text: string;
  /** 1 for a whole word; `partWeight` for each part of a compound ("hx" and "200" of "HX-200"). */
  weight: number;
  /** Written in capitals ("CAN", "IN", "GND"): a name, never a stop word. */
  acronym: boolean;
}

// Splits a compound into its parts; a dot splits only when it is not a decimal point (3.3 ≠ 3 + 3).
const PART_SPLIT = /[-+/_]|(?<!\p{N})\.|\.(?!\p{N})/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/** A unit word that follows a number: "V", "mAh", "°C"; a stop word ("a", "in") only when written in capitals ("5 A"). */
function isUnitAfterNumber(word: string): boolean {
  const lower = word.toLowerCase();
  return isUnit(lower) && (!STOPWORDS.has(lower) || UPPER.test(word));
}

/**
 * The embedder's tokens: each word whole, compounds also as weighted parts, case read before it
 * is folded so acronyms survive the stop-word list ("CAN bus" keeps "can", "you can" drops it),
 * and a number joined to its unit whether or not a space separates them ("3.3 V" and "3.3V" →
 * "3.3v"). Duplicates are kept (term frequencies).
 */
export function tokens(text: string, partWeight = 0.5): Token[] {
  const ws = foldMarks(text.normalize('NFKC')).match(WORD) ?? [];
  const out: Token[] = [];
  for (let i = 0; i < ws.length; i++) {
    const word = ws[i].toLowerCase();
    if (NUMBER.test(word) && i + 1 < ws.length && isUnitAfterNumber(ws[i + 1])) {
      out.push({ text: word + ws[++i].toLowerCase(), weight: 1, acronym: false });
      continue;
    }
    const parts = word.split(PART_SPLIT).filter(Boolean);
    const acronym = ws[i].length >= 2 && UPPER.test(ws[i]) && !LOWER.test(ws[i]);
    out.push({ text: parts.join(''), weight: 1, acronym });
    if (parts.length > 1 && partWeight > 0) for (const part of parts) out.push({ text: part, weight: partWeight, acronym });
  }
  return out;
}

/** A stop word of the list above, unless written as an acronym ("CAN", "IN"). */
export function isStopToken(t: Token): boolean {
  return !t.acronym && STOPWORDS.has(t.text);
}

const ISO_STOPWORDS: ReadonlySet<string> = new Set(stopwordsIso.en.map((w) => normalize(w)));

/** A word (normalized) of the comprehensive ISO English stop-word list: wider than `isStopword`'s. */
export function isIsoStopword(word: string): boolean {
  return ISO_STOPWORDS.has(word);
}

/**
 * A question's word that the comprehensive ISO list calls a stop word ("use", "want", "need"): the
 * offline embedder drops them from queries, where they are scaffolding, not from documents.
 * (Measured under CV: dense R@1 0.29 → 0.33, multi-vector 0.52 → 0.54, agent 0.56 → 0.58.)
 */
export function isQueryStopToken(t: Token): boolean {
  return !t.acronym && ISO_STOPWORDS.has(t.text);
}
