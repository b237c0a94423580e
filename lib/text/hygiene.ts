/**
 * Characters that change how a name displays without showing themselves. Bidirectional-text
 * controls (U+202A–U+202E embeddings/overrides, U+2066–U+2069 isolates, U+200E/U+200F/U+061C
 * marks) reorder it — `invoice‮fdp.exe` shows as `invoiceexe.pdf`; zero-width characters (U+200B
 * space, U+200C/U+200D (non-)joiners, U+2060 word joiner, U+FEFF, U+180E) make two names that
 * look the same differ (`admin` and `ad​min`). Names never need them (the cost: an emoji joined
 * with U+200D shows as its parts), so every name a person or a file supplies loses them here.
 */
const INVISIBLE_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF\u180E]/g;

export function stripInvisibleControls(s: string): string {
  return s.replace(INVISIBLE_CONTROLS, '');
}

/**
 * A name as typed (a manual's or a chat's title, a user's name, an API key's name): invisible
 * controls removed, whitespace runs made one space, trimmed. Length and emptiness are the caller's
 * to check, after this.
 */
export function cleanName(s: string): string {
  return stripInvisibleControls(s).replace(/\s+/g, ' ').trim();
}
