/**
 * Value lock: every value an answer states — a number with its unit, a part number, a pin name, a
 * code, a setting — must occur in a passage the sentence cites. A technician acts on these
 * values, so one the sources do not contain is marked, never passed off as quoted.
 *
 * A value is a token with a digit ("3.3 V", "80A", "E05", "CR2032", "AC-FU-0630") or a
 * token in capitals ("J7", "SET", "RUN"); matching ignores case and white space (the eval's
 * keyword rule), so "3.3V" in an answer meets "3.3 V" in a passage.
 */
import { isUnit } from '@/lib/text/units';
import { citedRefs, splitSentences, stripCitations } from '@/lib/text/sentences';

export interface AnswerValue {
  /** As written in the answer ("3.3 V"). */
  value: string;
  /** 0-based sentence index in the answer. */
  sentence: number;
  refs: number[];
}

export interface ValueCheck {
  /** Values checked, over every sentence. */
  checked: number;
  /** Values no cited passage contains (or no passage at all, for an uncited sentence). */
  unverified: AnswerValue[];
}

const TOKEN = /[\p{L}\p{N}]+(?:[.,\-+/_:][\p{L}\p{N}]+)*%?/gu;
const HAS_DIGIT = /\p{N}/u;
const NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;
// Capitals with at least two letters: a pin, a signal, a button label, a code ("TX", "BOOT").
const CAPITALS = /^(?=.*\p{Lu}.*\p{Lu})[\p{Lu}\p{N}_\-+/.]+$/u;

/** The eval's matching form: no white space, lower case, one minus sign. */
export function matchForm(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/gu, '')
    .toLowerCase();
}

/** The values a text states, each with its unit when one follows ("3.3 V", "-3 dB", "2 x 10 A" → "2", "10 A"). */
export function valuesIn(text: string): string[] {
  const tokens = [...text.normalize('NFKC').matchAll(TOKEN)].map((m) => ({ text: m[0], at: m.index!, end: m.index! + m[0].length }));
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!HAS_DIGIT.test(t.text) && !CAPITALS.test(t.text)) continue;
    // A sign written before the number belongs to it ("-40 °C").
    const signed = text[t.at - 1] === '-' || text[t.at - 1] === '−' ? `-${t.text}` : t.text;
    const next = tokens[i + 1];
    const gap = next ? text.slice(t.end, next.at) : '';
    if (NUMBER.test(t.text) && next && /^\s?°?$/.test(gap) && isUnit(`${gap.trim()}${next.text}`.toLowerCase())) {
      out.push(`${signed}${gap}${next.text}`);
      i++;
    } else {
      out.push(HAS_DIGIT.test(t.text) ? signed : t.text);
    }
  }
  return out;
}

/** True when `source` contains `value` in the matching form (a signed value also as unsigned text after a dash). */
function sourceHasValue(source: string, value: string): boolean {
  return matchForm(source).includes(matchForm(value));
}

/**
 * Checks every value of every sentence against the passages that sentence cites (`sources`: ref →
 * passage text). A sentence that cites nothing is checked against every passage the answer cites.
 * `names`: the titles of the manuals searched — an answer may name them (a note that the evidence
 * is from another device's manual), and a model number in a manual's name is a name, not a claim.
 */
export function checkValues(answer: string, sources: ReadonlyMap<number, string>, names: readonly string[] = []): ValueCheck {
  const named = names.join('\n');
  const sentences = splitSentences(answer);
  const allCited = [...new Set(citedRefs(answer))].filter((r) => sources.has(r));
  const unverified: AnswerValue[] = [];
  let checked = 0;
  sentences.forEach((sentence, index) => {
    const refs = citedRefs(sentence);
    const own = refs.filter((r) => sources.has(r));
    const pool = (own.length ? own : allCited).map((r) => sources.get(r)!).join('\n');
    for (const value of new Set(valuesIn(stripCitations(sentence)))) {
      if (named && sourceHasValue(named, value)) continue;
      checked++;
      if (!pool || !sourceHasValue(pool, value)) unverified.push({ value, sentence: index, refs });
    }
  });
  return { checked, unverified };
}
