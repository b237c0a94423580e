/**
 * The fixed sentences an answer says in its own voice: a decline, and the note that the evidence
 * is about another device. They are templates, never assembled from leftover question words, so
 * a reader never meets a broken sentence; the only words taken from the question are the phrase
 * it asks for, as one contiguous span ("What is the valve coil current of …" → "valve coil
 * current").
 */
import { askedSpan } from '@/lib/text/asked';

/** Digits and their runs: a manual title may be named only if the question already has its numbers. */
// Numbers as written, decimals whole: "V1.2" is 1.2, which a title's "v1" does not repeat.
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

/** "The manuals do not say: I found no passage giving the cable length in Acme HX-200 Manual." */
export function declineSentence(question: string, where = 'the manuals searched'): string {
  const asked = askedSpan(question);
  return asked
    ? `The manuals do not say: I found no passage giving the ${asked} in ${where}.`
    : `The manuals do not say: I found no passage in ${where} that answers this question.`;
}

/** "the X-9", never "the The X-9" (a device named as its title writes it keeps one article). */
const theDevice = (device: string) => `the ${device.replace(/^(?:the|a|an)\s+/i, '')}`;

/** "The manuals do not cover the Rigol DP832: no manual in the library mentions it." */
export function unknownDeviceSentence(devices: readonly string[]): string {
  const named = devices.map(theDevice).join(' or ');
  return `The manuals do not cover ${named}: no manual in the library mentions ${devices.length > 1 ? 'them' : 'it'}.`;
}

const list = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** "The manuals do not cover the QX-40C: they list the QX-40A and QX-40B but not the QX-40C." */
export function uncoveredVariantSentence(variants: ReadonlyArray<{ asked: string; listed: readonly string[] }>): string {
  return variants
    .map(({ asked, listed }) => `The manuals do not cover ${theDevice(asked)}: they list ${theDevice(list(listed))} but not ${theDevice(asked)}.`)
    .join(' ');
}

/** "The HX-200 manual is still processing (41 %); ask again when it is ready." */
export function notReadySentence(devices: ReadonlyArray<{ device: string; percent?: number }>): string {
  const one = devices.length === 1;
  const percent = one && devices[0].percent !== undefined ? ` (${devices[0].percent} %)` : '';
  return `The ${list(devices.map((d) => d.device))} ${one ? 'manual is' : 'manuals are'} still processing${percent}; ask again when ${one ? 'it is' : 'they are'} ready.`;
}
