/**
 * Text analysis shared by ingest, search, answers and the eval: one tokenizer, one stemmer, one
 * stop-word list, one unit table. Nothing here is fitted to particular questions; the linguistic
 * knowledge comes from general sources:
 *   - stemming: the Porter stemmer (`stemmer`, wooorm), English;
 *   - stop words: the `stopword` package's maintained lists (English by default);
 *   - units: the SI prefixes × the units electrical/mechanical specifications use (./units.ts).
 */
import { eng } from 'stopword';
import { stemmer } from 'stemmer';
import { isUnit } from './units';

const STOPWORDS: ReadonlySet<string> = new Set(eng.map((w) => w.toLowerCase().replace(/[’']/g, '')));

/** True for a function word of the maintained English list. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

// A word: letters/digits, keeping inner dots, dashes, plus and slash so part numbers, decimals and
// compounds stay whole ("stm32f072", "3.3", "esp32-poe", "v/div"); the parts are added by `terms`.
const WORD = /[\p{L}\p{N}]+(?:[.\-+/_][\p{L}\p{N}]+)*/gu;
const HAS_DIGIT = /\p{N}/u;
const NUMBER = /^\d+(?:\.\d+)?$/;
const GLUED_NUMBER_UNIT = /^(\d+(?:\.\d+)?)(\p{L}[\p{L}/]*\d?)$/u;

/** NFKC, lower case, one dash, apostrophes closed ("doesn't" → "doesnt", "DLC32's" → "dlc32"). */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212\uFE63\uFF0D]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B\u02BC`´]/g, "'")
    .replace(/([\p{L}\p{N}])'s(?![\p{L}\p{N}])/gu, '$1')
    .replace(/(\p{L})'(\p{L})/gu, '$1$2');
}

/** Lower-case word tokens, compounds whole ("esp32-poe", "3.3", "gpio12"). */
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

/**
 * Index/query terms of a text, duplicates kept (term frequencies). Each word gives its stem; a
 * compound also gives its parts ("esp32-poe" → esp32-poe, esp32, poe); a number with a unit gives
 * the joined form whether or not a space separates them ("3.3 V" and "3.3V" → 3.3v and 3.3).
 * The same function runs on passages and questions, so both sides meet.
 */
export function terms(text: string): string[] {
  const ws = words(text);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    if (isContent(w)) out.push(stem(w));
    const next = ws[i + 1];
    if (NUMBER.test(w) && next && isUnit(next)) out.push(`${w}${next}`);
    const glued = w.match(GLUED_NUMBER_UNIT);
    if (glued && isUnit(glued[2])) out.push(glued[1]);
    if (/[.\-+/_]/.test(w) && !NUMBER.test(w)) {
      for (const part of w.split(/[.\-+/_]+/)) {
        if (part && part !== w && isContent(part)) out.push(stem(part));
      }
    }
  }
  return out;
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

