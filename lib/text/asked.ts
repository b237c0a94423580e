/**
 * The phrase a question asks for, as one contiguous span of its own words ("What is the valve coil
 * current of …" → "valve coil current"). Answers name it in fixed sentences
 * (lib/answer/word.ts); ranking and declining read the quantity it names (./quantities.ts).
 */
import { isIsoStopword, normalize } from './analyze';

// "what is the …", "which …", "how much …": the words after them are what the question asks for.
const ASK = /\b(?:what|which|how much|how many|how long|how often)\b(?:'s|\s+(?:is|are|was|were))?(?:\s+(?:the|its|their|a|an|kind of|type of|sort of))?\s+/gi;
const MAX_WORDS = 6;

/**
 * The phrase a question asks for: the run of content words after "what is the", "which", "how
 * much" …, up to the first function word or punctuation ("What supply voltage does the HX-200
 * need …" → "supply voltage"). Undefined when the question asks no such thing ("Walk me through …").
 */
export function askedSpan(question: string): string | undefined {
  for (const m of question.matchAll(ASK)) {
    const clause = question.slice(m.index! + m[0].length).split(/[,;:?!()"“”]/)[0];
    const out: string[] = [];
    for (const raw of clause.trim().split(/\s+/)) {
      const word = raw.replace(/[^\p{L}\p{N}]+$/u, '');
      // The phrase ends at the first word of the comprehensive ISO list (function words, "does",
      // vague words like "value"), wider than search's on purpose: a phrase cut short still reads
      // well, one run on does not.
      if (!word || !/[\p{L}\p{N}]/u.test(word) || isIsoStopword(normalize(word)) || out.length >= MAX_WORDS) break;
      out.push(word);
      // A word with punctuation after it ends the phrase ("fuse." / "range/").
      if (word !== raw) break;
    }
    if (out.length) return out.join(' ');
  }
  return undefined;
}
