/**
 * Follow-up questions: "and what's the max current then?" after a question about series mode on
 * the DP832 is about series mode on the DP832. A question that names no manual's device, after
 * one that did, is read with the earlier question's device and topic words added, and the trail
 * shows the resolved question. Which words name a device comes from the library itself: the
 * words of a manual's identity (title, file name, cover page) that few manuals share.
 */
import { distinctTerms, isStopword, words } from '@/lib/text/analyze';
import type { ChatTurn } from './contract';

/** Words naming one device: in the identity of at most this share of the manuals. */
const DEVICE_WORD_SHARE = 1 / 3;

/** The question's words that name a device of the library. */
export function deviceWords(question: string, identities: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const n = identities.size;
  const out: string[] = [];
  for (const w of new Set(words(question))) {
    if (isStopword(w) || w.length < 2) continue;
    let df = 0;
    for (const ws of identities.values()) if (ws.has(w)) df++;
    if (df > 0 && df <= Math.max(1, n * DEVICE_WORD_SHARE)) out.push(w);
  }
  return out;
}

/**
 * The question to search for: the question itself, or — for a follow-up — the question with the
 * previous question's device words and the content words it does not repeat, in parentheses.
 */
export function resolveFollowUp(question: string, history: readonly ChatTurn[], identities: ReadonlyMap<string, ReadonlySet<string>>): string {
  const previous = [...history].reverse().find((t) => t.role === 'user')?.content;
  if (!previous || identities.size < 2 || deviceWords(question, identities).length > 0) return question;
  const device = deviceWords(previous, identities);
  if (device.length === 0) return question;
  const asked = new Set(distinctTerms(question));
  const topic = words(previous).filter((w) => !isStopword(w) && !device.includes(w) && distinctTerms(w).every((t) => !asked.has(t)));
  return `${question} (${[...new Set([...device, ...topic])].join(' ')})`;
}
