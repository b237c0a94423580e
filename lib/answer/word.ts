/**
 * The fixed sentences an answer says in its own voice: a decline, the `pages` form's sentence,
 * and the notes that a device or variant is not covered or its manual not ready. They are templates, never assembled from leftover question words, so
 * a reader never meets a broken sentence; the only words taken from the question are the phrase
 * it asks for, as one contiguous span ("What is the valve coil current of …" → "valve coil
 * current").
 */
import { askedSpan } from '@/lib/text/asked';
import { joinWithAnd } from '@/lib/text/format';

/** The words every decline opens with, the offline writer's and the LLM writer's (its prompt asks for them). */
export const DECLINE_OPENING = 'The manuals do not say';

/** A decline's opening as written, or a model's close variant of it ("The manual does not mention …"). */
const DECLINES = /^\s*the manuals? do(es)? not (say|mention|cover|contain|specify|describe)/i;

/** The reply (or sentence) opens as a decline: it makes no claim about the sources. */
export function isDecline(text: string): boolean {
  return DECLINES.test(text);
}

/** "The manuals do not say: I found no passage giving the cable length in the manuals searched." (nothing retrieved at all) */
export function declineSentence(question: string): string {
  const asked = askedSpan(question);
  return asked
    ? `${DECLINE_OPENING}: I found no passage giving the ${asked} in the manuals searched.`
    : `${DECLINE_OPENING}: I found no passage in the manuals searched that answers this question.`;
}

/**
 * The one sentence of the `pages` form (lib/answer/form.ts): the evidence does not hold the asked
 * thing clearly, so no paragraph that reads like an answer, only this and the closest pages.
 * "I could not find a stated value for the cable length; these pages are the closest match."
 */
export function closestPagesSentence(question: string): string {
  const asked = askedSpan(question);
  return asked
    ? `I could not find a stated value for the ${asked}; these pages are the closest match.`
    : 'I could not find a passage that answers this question; these pages are the closest match.';
}

/**
 * A reading of a scanned table, code list or value: its text came from OCR, so it is shown as a
 * place to look, not stated: "The value may be in this table on a scanned page (page 4); its text
 * reads: "…". Check it on the page."
 */
export function scannedRegionSentence(kind: string, page: number, reads: string): string {
  const what = kind === 'procedure' ? 'procedure' : kind === 'code' ? 'code list' : kind === 'labelled_value' ? 'label' : 'table';
  return `The answer may be in this ${what} on a scanned page (page ${page}); its text reads "${reads}", which may be misread. Check it on the page.`;
}

/** "the X-9", never "the The X-9" (a device named as its title writes it keeps one article). */
const theDevice = (device: string) => `the ${device.replace(/^(?:the|a|an)\s+/i, '')}`;

/** "The manuals do not cover the Rigol DP832: no manual in the library mentions it." */
export function unknownDeviceSentence(devices: readonly string[]): string {
  const named = devices.map(theDevice).join(' or ');
  return `The manuals do not cover ${named}: no manual in the library mentions ${devices.length > 1 ? 'them' : 'it'}.`;
}

/** "The manuals do not cover the QX-40C: they list the QX-40A and QX-40B but not the QX-40C." */
export function uncoveredVariantSentence(variants: ReadonlyArray<{ asked: string; listed: readonly string[] }>): string {
  return variants
    .map(({ asked, listed }) => `The manuals do not cover ${theDevice(asked)}: they list ${theDevice(joinWithAnd(listed))} but not ${theDevice(asked)}.`)
    .join(' ');
}

/**
 * An answer from a manual still processing (progressive availability): "“Acme HX-200 Manual” is
 * still processing (searchable through page 40 of 120); this answer may be incomplete."
 */
export function stillProcessingSentence(manuals: ReadonlyArray<{ title: string; searchablePages?: number; pageCount?: number | null }>): string {
  const one = manuals.length === 1;
  const through = (m: (typeof manuals)[number]) => (m.pageCount ? ` (searchable through page ${m.searchablePages ?? 0} of ${m.pageCount})` : '');
  const named = joinWithAnd(manuals.map((m) => `“${m.title}”${through(m)}`));
  return `${named} ${one ? 'is' : 'are'} still processing; this answer may be incomplete.`;
}

/** "The HX-200 manual is still processing (41 %); ask again when it is ready." */
export function notReadySentence(devices: ReadonlyArray<{ device: string; percent?: number }>): string {
  const one = devices.length === 1;
  const percent = one && devices[0].percent !== undefined ? ` (${devices[0].percent} %)` : '';
  return `The ${joinWithAnd(devices.map((d) => d.device))} ${one ? 'manual is' : 'manuals are'} still processing${percent}; ask again when ${one ? 'it is' : 'they are'} ready.`;
}

/**
 * A stated answer in a library of several devices names its manual first ("HX-200 controller:
 * …"), unless its first words already do. `name` is the cited manual's device name.
 */
export function namingManual(text: string, name: string | undefined): string {
  if (!name || !text.trim()) return text;
  const head = text.slice(0, Math.max(80, name.length + 20)).toLowerCase();
  return head.includes(name.toLowerCase()) ? text : `${name}: ${text}`;
}
