/**
 * The LLM writer: the answer contract a language model writes under, its prompt, the value lock's
 * one rewrite, and the rules that read its reply (a decline, its form, the check that keeps an
 * answer that fails it from being stated). It takes plain evidence, so the end tool only gathers
 * it and shapes the output; the offline writer is ./extractive.ts.
 */
import { streamText, type LanguageModel, type LanguageModelUsage } from 'ai';
import { truncate } from '@/lib/text/format';
import { devicesNotReady, uncoveredVariants, unknownDevices } from './applicability';
import type { AnswerMode } from './form';
import { formatHit, type ModelLookup, type RefHit } from './hits';
import { readQuestion } from './select';
import { unitsForPrompt, type PageUnit } from './structured';
import { checkValues, type AnswerValue } from './values';
import { DECLINE_OPENING, isDecline } from './word';

/** Evidence shown to the LLM (~15k tokens); the best-ranked passages come first. */
const MAX_EVIDENCE_CHARS = 60_000;

// The answer contract: copy values, cite every claim, say when the manuals do not cover
// it, name the device. The value lock checks the first rule after the answer is written.
const SYSTEM = `You answer a technician's question using only the numbered manual sources provided.
- Cite every factual sentence with its source number in square brackets right after the claim, e.g. "The fuse is rated 2 A [3]."
- Copy values, units, part numbers, pin names, codes and settings exactly as the cited source writes them; never compute, convert or round them. Use numbered steps for procedures.
- Each source line starts with its manual's title. If the question names a device and the sources are about another device, say so in the first sentence.
- If the sources do not contain the answer, reply with one sentence starting "${DECLINE_OPENING}" that names what is missing. Never guess or use outside knowledge.
- Be concise.`;

/** What the writer is given: the turn's question and history, and what the searches found. */
export interface WriterEvidence {
  question: string;
  history: ReadonlyArray<{ role: string; content: string }>;
  /** The text hits, best-ranked first. */
  hits: readonly RefHit[];
  /** The structure units of the best pages (tables, procedures, values). */
  units: readonly PageUnit[];
  /** What the searches found out about the question's model names (./applicability.ts). */
  lookups: readonly ModelLookup[];
  /** The latest summary of the sources, if any. */
  summary?: string;
  /** Ref → the text a citation of it stands for (the value lock's sources). */
  citable: ReadonlyMap<number, string>;
  /** Titles of the manuals searched: a value in a manual's name is a name, not a claim. */
  titles: readonly string[];
}

export interface WriterOptions {
  signal: AbortSignal;
  recordUsage(usage: LanguageModelUsage | undefined): void;
  /** Called on every streamed piece, so a caller knows the UI shows part of an answer. */
  onDelta(): void;
}

/** What the writer streams: a piece of the answer (`reset`: it replaces what was shown), or a status line. */
export type WriterOutput = { type: 'status'; message: string } | { type: 'response'; delta: string; reset?: boolean };

export interface LlmWriting {
  /** The reply; empty when the model gave none. */
  text: string;
  /** The model answered (a failed rewrite keeps its first answer). */
  answered: boolean;
  /** The answer is the value lock's rewrite. */
  regenerated: boolean;
  /** Why the model failed, when it did: the caller answers offline if it never answered. */
  failure?: string;
}

/** The user prompt: question, recent history, the sources within budget, the best pages' structures and the applicability notes. */
export function answerPrompt(e: WriterEvidence, finding?: string): string {
  const lines = [`Question: ${e.question}`];
  const history = e.history.slice(-4);
  if (history.length) {
    lines.push('', 'Earlier in this conversation:');
    for (const turn of history) lines.push(`${turn.role}: ${truncate(turn.content.replace(/\s+/g, ' '), 400)}`);
  }
  lines.push('', 'Sources:');
  let used = 0;
  for (const hit of e.hits) {
    const line = formatHit(hit, 4000);
    if (used + line.length > MAX_EVIDENCE_CHARS) break;
    lines.push(line);
    used += line.length;
  }
  if (used === 0) lines.push('(no sources were found)');
  const structures = unitsForPrompt(e.units, (manualId, page) => e.hits.find((h) => h.manualId === manualId && h.page === page)?.ref);
  if (structures.length) lines.push('', 'Tables, procedures and values on the best pages, as printed (cite their source number):', ...structures);
  const unknown = unknownDevices(e.lookups);
  if (unknown.length) lines.push('', `Note: no manual in the library mentions ${unknown.join(' or ')}.`);
  for (const { asked, listed } of uncoveredVariants(e.lookups))
    lines.push('', `Note: the manuals list ${listed.join(', ')} but never ${asked}; say that they do not cover ${asked}.`);
  for (const { device, percent } of devicesNotReady(e.lookups))
    lines.push(
      '',
      `Note: the manual of the ${device} is still processing${percent !== undefined ? ` (${percent} %)` : ''} and cannot be searched yet; say so.`,
    );
  if (e.summary) lines.push('', `Summary of the sources: ${e.summary}`);
  if (finding) lines.push('', finding);
  return lines.join('\n');
}

async function* streamAnswer(model: LanguageModel, e: WriterEvidence, opts: WriterOptions, finding?: string): AsyncGenerator<WriterOutput, string> {
  // Errors arrive as 'error' parts below and are handled there; the default handler would only log them.
  const result = streamText({ model, system: SYSTEM, prompt: answerPrompt(e, finding), abortSignal: opts.signal, maxRetries: 0, onError: () => {} });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      // A rewrite replaces what the UI already shows.
      const reset = finding !== undefined && text === '';
      text += part.text;
      opts.onDelta();
      yield { type: 'response', delta: part.text, ...(reset ? { reset: true } : {}) };
    } else if (part.type === 'error') {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    } else if (part.type === 'finish') {
      opts.recordUsage(part.totalUsage);
    }
  }
  return text.trim();
}

function valueFinding(unverified: AnswerValue[]): string {
  const lines = unverified.map((u) => `- "${u.value}" (cited ${u.refs.length ? u.refs.map((r) => `[${r}]`).join(', ') : 'nothing'})`);
  return [
    'Your previous answer stated values that do not appear in the sources it cites:',
    ...lines,
    'Write the answer again. Copy every value exactly from the source you cite, cite the source that contains it, and leave out any value the sources do not give.',
  ].join('\n');
}

/**
 * Writes the answer with the model, streaming it. Value lock: a value no cited passage contains
 * gets one rewrite with the finding; an answer still failing it is not stated (llmAnswerFails).
 * A model error is returned as `failure`, not thrown, unless the turn was aborted.
 */
export async function* writeWithLlm(model: LanguageModel, e: WriterEvidence, opts: WriterOptions): AsyncGenerator<WriterOutput, LlmWriting> {
  let text = '';
  let answered = false;
  let regenerated = false;
  try {
    text = yield* streamAnswer(model, e, opts);
    if (!text) throw new Error('the model returned an empty answer');
    answered = true;
    const unverified = isDecline(text) ? [] : checkValues(text, e.citable, e.titles).unverified;
    if (unverified.length) {
      const listed = [...new Set(unverified.map((u) => u.value))].join(', ');
      yield { type: 'status', message: `${listed}: not in the cited sources; asking the model to correct the answer` };
      const rewrite = yield* streamAnswer(model, e, opts, valueFinding(unverified));
      if (rewrite) {
        text = rewrite;
        regenerated = true;
      }
    }
    return { text, answered, regenerated };
  } catch (err) {
    if (opts.signal.aborted) throw err;
    yield { type: 'status', message: 'The language model failed; answering from the passages directly' };
    return { text, answered, regenerated, failure: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The answer check on an LLM's answer: a value no cited passage holds even after the rewrite,
 * or an answer citing only other manuals than the one whose device the question names, is not
 * stated. `citedManuals`: the manuals of the sources the answer cites. Returns why, or undefined
 * when the answer holds (a decline makes no claim to check).
 */
export function llmAnswerFails(
  text: string,
  e: Pick<WriterEvidence, 'question' | 'hits' | 'citable' | 'titles'> & { topicTerms: Map<string, Set<string>> },
  citedManuals: readonly string[],
): string | undefined {
  if (isDecline(text)) return undefined;
  const unverified = checkValues(text, e.citable, e.titles).unverified;
  if (unverified.length) return `${[...new Set(unverified.map((u) => u.value))].join(', ')}: not in the cited sources after a rewrite`;
  const named = readQuestion(e.question, [...e.hits], e.topicTerms)?.named;
  const cited = new Set(citedManuals);
  if (named && cited.size && !cited.has(named)) return 'the answer cites only other manuals than the one of the device the question names';
  return undefined;
}

/** The form of an LLM's reply: an answer, or a decline that is not covered when the searches found the asked device or variant uncovered (or not ready), else the closest pages. */
export function llmReplyForm(text: string, lookups: readonly ModelLookup[]): { declined: boolean; mode: AnswerMode } {
  if (!isDecline(text)) return { declined: false, mode: 'answer' };
  const uncovered = unknownDevices(lookups).length || uncoveredVariants(lookups).length || devicesNotReady(lookups).length;
  return { declined: true, mode: uncovered ? 'not_covered' : 'pages' };
}
