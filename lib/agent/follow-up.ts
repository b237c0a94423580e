/**
 * Follow-up questions: "and what's the max current then?" after a question about series mode on
 * the DP832 is about series mode on the DP832. A question that names no manual's device, after
 * one that did, is read with the earlier question's device and topic words added, and the trail
 * shows the resolved question. Which words name a device comes from the library itself: the
 * words of a manual's identity (title, file name, cover page) that few manuals share.
 *
 * A follow-up that only swaps a qualifier — a word and a number ("output 2"), or a designation
 * ("J4") — for one of the same kind in the previous question ("and output 3?" after "… of output
 * 2 on the HX-200?") is the previous question with that qualifier replaced: appending would keep
 * the old one, and the search would find it again. The previous question is itself read as a
 * follow-up first, so a chain of them keeps its subject.
 */
import { deviceWords } from '@/lib/device/identity';
import { identityTokens } from '@/lib/device/tokens';
import { distinctTerms, isStopword, words } from '@/lib/text/analyze';
import type { ChatTurn } from './contract';

/**
 * The history a turn sees: the last few answered turns of the chat, as question and answer
 * messages (the chat and the eval's multi-turn sessions both build it here).
 */
export function historyOf(turns: ReadonlyArray<{ question: string; answer: string; status: string }>, maxTurns = 3): ChatTurn[] {
  return turns
    .filter((t) => t.status === 'done' && t.answer.trim())
    .slice(-maxTurns)
    .flatMap((t) => [
      { role: 'user' as const, content: t.question },
      { role: 'assistant' as const, content: t.answer },
    ]);
}

/** A qualifier as a question writes it: its kind ("output", or a designation's letters "j") and its text span. */
interface Qualifier {
  kind: string;
  span: string;
}

const NUMBER = /^\d+(?:[.,]\d+)?$/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The qualifiers of a question: a content word followed by a number ("output 2"), and designations with a letter prefix ("J4", "CH1"). */
function qualifiers(text: string): Qualifier[] {
  const raw = identityTokens(text);
  const out: Qualifier[] = [];
  for (let i = 1; i < raw.length; i++) {
    const word = raw[i - 1].toLowerCase();
    if (NUMBER.test(raw[i]) && /^\p{L}{2,}$/u.test(word) && !isStopword(word)) out.push({ kind: word, span: `${raw[i - 1]} ${raw[i]}` });
  }
  for (const token of raw) {
    // A designation: letters, then a number and perhaps a variant ("J4", "CH1", "QX-40A").
    const prefix = token.match(/^(\p{L}+)-?\d+\p{L}?$/u)?.[1];
    if (prefix) out.push({ kind: `${prefix.toLowerCase()}#`, span: token });
  }
  return out;
}

/** The previous question with the follow-up's qualifiers put in place of those of the same kind, or undefined when none pairs. */
function swapQualifiers(question: string, previous: string): { swapped: string; spans: string[] } | undefined {
  const before = qualifiers(previous);
  let swapped = previous;
  const spans: string[] = [];
  for (const q of qualifiers(question)) {
    const old = before.find((b) => b.kind === q.kind && b.span.toLowerCase() !== q.span.toLowerCase());
    if (!old) continue;
    swapped = swapped.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(old.span)}(?![\\p{L}\\p{N}])`, 'u'), q.span);
    spans.push(q.span);
  }
  return spans.length ? { swapped, spans } : undefined;
}

/** A follow-up as read: the text searched, and how the trail words it for the reader. */
export interface FollowUpReading {
  search: string;
  /** The swapped question as it reads, or the follow-up with the earlier question it continues. */
  shown: string;
}

/**
 * The question to search for: the question itself, or — for a follow-up — the previous question
 * with the follow-up's qualifiers swapped in when that is all it asks, else the question with the
 * previous question's device words and the content words it does not repeat, in parentheses. The
 * parenthesised words are for the search; the reader is shown the earlier question instead.
 * `identities`: each device's identity words (identitiesByDevice in lib/device/identity.ts).
 */
export function resolveFollowUp(question: string, history: readonly ChatTurn[], identities: ReadonlyMap<string, ReadonlySet<string>>): FollowUpReading {
  const same = { search: question, shown: question };
  const at = history.findLastIndex((t) => t.role === 'user');
  if (at < 0 || identities.size === 0 || deviceWords(question, identities).length > 0) return same;
  let previous = resolveFollowUp(history[at].content, history.slice(0, at), identities).search;
  const swap = swapQualifiers(question, previous);
  if (swap) {
    // Nothing asked beyond the qualifiers: the previous question, qualifiers swapped.
    const known = new Set([...distinctTerms(previous), ...distinctTerms(swap.spans.join(' '))]);
    if (distinctTerms(question).every((t) => known.has(t))) return { search: swap.swapped, shown: swap.swapped };
    previous = swap.swapped;
  }
  const device = deviceWords(previous, identities);
  if (device.length === 0) return same;
  const asked = new Set(distinctTerms(question));
  const topic = words(previous).filter((w) => !isStopword(w) && !device.includes(w) && distinctTerms(w).every((t) => !asked.has(t)));
  return { search: `${question} (${[...new Set([...device, ...topic])].join(' ')})`, shown: `${question} — continuing “${history[at].content.trim()}”` };
}
