/**
 * The one tokenizer and file-name cleaner of device identity (./identity.ts): every reader of
 * device names — designations, the named-device reading, the library index, follow-ups,
 * applicability, suggestions — splits text and cleans file names here.
 */

/** A token without the punctuation around it ("(HX-200)," → "HX-200"). */
export const trimToken = (t: string) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** The one tokenizer of device identity: whitespace-separated tokens, punctuation trimmed, empty ones dropped. */
export function identityTokens(text: string): string[] {
  return text.split(/\s+/).map(trimToken).filter(Boolean);
}

/** A file name as words: no folder, no ".pdf", underscores as spaces ("docs/acme_hx200_manual.pdf" → "acme hx200 manual"). */
export function fileNameText(fileName: string): string {
  return (fileName.split(/[\\/]/).pop() ?? '').replace(/\.pdf$/i, '').replace(/_+/g, ' ');
}

/** The text naming a manual: its title and its file name's words. */
export const nameText = (m: { title: string; fileName: string }, sep = '\n') => `${m.title}${sep}${fileNameText(m.fileName)}`;

/**
 * A token written as a name: a digit or a capital ("Zentro", "HX-200"); "board" is prose, and so is a
 * sentence's first word with only its first letter capitalised ("Board …").
 */
export const writtenAsName = (token: string, first: boolean) => /\d/.test(token) || /\p{Lu}/u.test(first ? token.slice(1) : token);

/** Edition markers and bare small numbers name no device by themselves ("v2", "rev", "2.0", "12"). */
export const EDITION = /^(?:v|rev|r)?\d{1,2}(?:\.\d+)*$/;

/** English determiners before a noun phrase. */
export const DETERMINER = /^(a|an|the|my|our|your|this|that|these|those)$/i;
