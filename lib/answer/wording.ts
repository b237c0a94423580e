/**
 * The fixed sentences an answer says in its own voice: a decline, and the note that the evidence
 * is about another device. They are templates, never assembled from leftover question words, so
 * a reader never meets a broken sentence; the only words taken from the question are the phrase
 * it asks for, as one contiguous span ("What is the analog -3 dB bandwidth of …" → "analog -3 dB
 * bandwidth").
 */
import stopwordsIso from 'stopwords-iso';
import { normalize } from '@/lib/text/analyze';

// Where the asked phrase ends: at the first word of the comprehensive ISO English stop-word list
// (function words, auxiliaries like "does", and vague words like "value"), which is wider than the
// search analyzer's list on purpose: a phrase cut short still reads well, one run on does not.
const PHRASE_END: ReadonlySet<string> = new Set(stopwordsIso.en.map((w) => normalize(w)));

// "what is the …", "which …", "how much …": the words after them are what the question asks for.
const ASK = /\b(?:what|which|how much|how many|how long|how often)\b(?:'s|\s+(?:is|are|was|were))?(?:\s+(?:the|its|their|a|an|kind of|type of|sort of))?\s+/gi;
const MAX_WORDS = 6;

/**
 * The phrase a question asks for: the run of content words after "what is the", "which", "how
 * much" …, up to the first function word or punctuation ("What supply voltage should I feed …" →
 * "supply voltage"). Undefined when the question asks no such thing ("Walk me through …").
 */
export function askedSpan(question: string): string | undefined {
  for (const m of question.matchAll(ASK)) {
    const clause = question.slice(m.index! + m[0].length).split(/[,;:?!()"“”]/)[0];
    const out: string[] = [];
    for (const raw of clause.trim().split(/\s+/)) {
      const word = raw.replace(/[^\p{L}\p{N}]+$/u, '');
      if (!word || !/[\p{L}\p{N}]/u.test(word) || PHRASE_END.has(normalize(word)) || out.length >= MAX_WORDS) break;
      out.push(word);
      // A word with punctuation after it ends the phrase ("fuse." / "range/").
      if (word !== raw) break;
    }
    if (out.length) return out.join(' ');
  }
  return undefined;
}

/** Digits and their runs: a manual title may be named only if the question already has its numbers. */
// Numbers as written, decimals whole: "V2.0" is 2.0, which a title's "v2" does not repeat.
const numbersOf = (s: string) => s.match(/\d+(?:[.,]\d+)?/g) ?? [];

/**
 * Where the answer looked, for the decline: the manual's title when the question names its device
 * and the title adds no number the question lacks (a decline must not state values); otherwise
 * "the manuals searched".
 */
export function whereLooked(question: string, manualTitle: string | undefined, namesDevice: boolean): string {
  if (!manualTitle || !namesDevice) return 'the manuals searched';
  const asked = new Set(numbersOf(question));
  return numbersOf(manualTitle).every((n) => asked.has(n)) ? manualTitle : 'the manuals searched';
}

/** "The manuals do not say: I found no passage giving the holding torque in CL57R User Manual." */
export function declineSentence(question: string, where = 'the manuals searched'): string {
  const asked = askedSpan(question);
  return asked
    ? `The manuals do not say: I found no passage giving the ${asked} in ${where}.`
    : `The manuals do not say: I found no passage in ${where} that answers this question.`;
}

/** The note before an answer whose evidence is from another device's manual than the one asked about. */
export function otherDeviceNote(askedDevice: string, manualTitle: string): string {
  return `Note: I found no answer in a manual for ${askedDevice}; what follows is from ${manualTitle}, a different device.`;
}
