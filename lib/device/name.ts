/**
 * A device's name as sentences and labels say it, from its manual's title ("The X-9 controller
 * Specification and operation manual" → "X-9 controller"). Part of the device identity module
 * (./identity.ts): the chip, suggestions, the library's cards and the clarify choices all name a
 * device here.
 */
import { designationTokens, isErrorCode } from './designations';

/**
 * Words that say what kind of document a title names, not which device: a manual's title is its
 * device plus these ("The X-9 controller Specification and operation manual"). General knowledge
 * of how manuals are titled, as the connecting words between them ("and", "for", "of").
 */
const DOCUMENT_WORDS = new Set(
  (
    'manual manuals guide guides handbook handbooks instruction instructions specification specifications spec specs ' +
    'operation operations operating operator operators user users owner owners datasheet datasheets ' +
    'reference installation install service maintenance quick start getting started setup documentation document ' +
    'technical brochure leaflet booklet catalogue catalog overview description edition revision rev version ver release ' +
    'protocol notes wiring standard contents ' +
    'draft getting english and & for of the a an to'
  ).split(' '),
);

/**
 * Whether a word says what kind of document a title names ("manual", "guide", "specification"),
 * not which device: the one list of device identity, for titles, names, kinds and the title an
 * ingest reads off a cover. "Data sheet" and "table of contents" read as one word each.
 */
export const isDocumentWord = (w: string) => DOCUMENT_WORDS.has(w.toLowerCase());

/** A title's words, two-word document types joined ("data sheet" → "datasheet", "table of contents" → "contents"). */
export const joinDocumentWords = (text: string) => text.replace(/\bdata\s+sheets?\b/gi, 'datasheet').replace(/\btable\s+of\s+contents\b/gi, 'contents');
/** Leading articles: "The X-9 controller" is named "X-9 controller" (a sentence adds its own "the"). */
const ARTICLE = /^(?:the|a|an)$/i;
/** A version or edition marker: "V1.2", "2nd (edition)". */
const MARKER = /^(?:v\d[\d.]*|\d+(?:st|nd|rd|th))$/i;
/** The words a number or a letter belongs to ("Revision B", "Version 1.2", "Edition 3"). */
const NUMBERED = /^(?:edition|revision|rev|version|ver|release|issue|no)$/;
const MAX_DEVICE_WORDS = 4;

const bare = (w: string) =>
  w
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&]+$/gu, '')
    .replace(/[’']s$/, '');
/** A word of the document type, an edition marker, or the number that follows one ("Revision B"). */
const documentWord = (w: string) => DOCUMENT_WORDS.has(bare(w)) || MARKER.test(bare(w)) || bare(w) === '';
const hasDesignation = (w: string) => designationTokens(w.replace(/[’']s$/, '')).length > 0;

/**
 * The device a title names, short enough for a sentence ("How is the X-9 controller wired?"):
 * the part of the title that names a model (letters and digits) when it is split by a dash or a
 * colon, without leading articles and without the document-type words and edition markers before
 * and after it; at most four words, kept around the model designation (else the last four: the
 * head of a noun phrase comes last). Falls back to the title when nothing is left.
 */
export function deviceName(title: string): string {
  const clean = title.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  // Two-word document types read as one.
  const joined = joinDocumentWords(clean);
  // A slug such as "acme-hx200-manual" reads as words.
  const spaced = /\s/.test(joined) ? joined : joined.replace(/(?<=\p{L})-(?=\p{L})|-(?=(?:manual|guide)\b)/giu, ' ');
  const parts = spaced
    .split(/\s+[-–—:|]\s+|:\s+|\s*[()[\]]\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  const trimmed = parts.map((p) => trimDocumentWords(p.split(' '))).filter((ws) => ws.length > 0);
  const words = trimmed.find((ws) => ws.some(hasDesignation)) ?? trimmed[0];
  if (!words) return clean.replace(/^(?:the|a|an)\s+/i, '') || clean;
  return shorten(words)
    .join(' ')
    .replace(/[,;]+$/, '');
}

/** Without articles and document-type words at either end ("User manual for the …", "… operation manual"). */
function trimDocumentWords(words: string[]): string[] {
  let start = 0;
  let end = words.length;
  while (start < end && (ARTICLE.test(bare(words[start])) || documentWord(words[start]))) start++;
  for (;;) {
    if (end > start && documentWord(words[end - 1])) end--;
    // "… Revision B", "… Version 1.2": the number or letter with its marker word.
    else if (end - 1 > start && NUMBERED.test(bare(words[end - 2])) && /^(?:[\d.]+|\p{L})$/u.test(bare(words[end - 1]))) end -= 2;
    else break;
  }
  return words.slice(start, end);
}

/** At most four words: the designation and the words after it (then before it); else the last four. */
function shorten(words: string[]): string[] {
  if (words.length <= MAX_DEVICE_WORDS) return words;
  const at = words.findIndex(hasDesignation);
  if (at < 0) return words.slice(-MAX_DEVICE_WORDS);
  const start = Math.max(0, Math.min(at, words.length - MAX_DEVICE_WORDS));
  return words.slice(start, start + MAX_DEVICE_WORDS);
}

// Designations that name a rating, a standard or a metric thread (IP65, AWG18, ISO9001, M10), not a product.
const RATING_OR_STANDARD = /^(?:(?:IP|CR|AWG|DIN|ISO|EN|IEC|UL|PL)-?\d|M\d+$)/;

/**
 * A short product name for questions: the device the title names (above:
 * "The X-9 controller Specification and operation manual" → "X-9 controller") when it has a model
 * designation written with capitals; else the model number the text prints most; else the
 * title's device. Never with a leading article, so "the {name}" reads once.
 */
export function productName(title: string, text = ''): string {
  const device = deviceName(title);
  if (designationTokens(device).some((t) => /\p{Lu}/u.test(t))) return device;
  // The most frequent designation printed with capitals (./designations.ts: letters and
  // digits, not a value such as 24V), other than ratings, standards and error codes.
  const counts = new Map<string, number>();
  for (const token of designationTokens(text)) {
    if (!/\p{Lu}/u.test(token) || RATING_OR_STANDARD.test(token) || isErrorCode(token)) continue;
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  const fromText = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (fromText) return fromText;
  const token = title.split(/[\s_]+|(?<=\D)-(?=\D)|-(?=manual|guide)/i).find((t) => designationTokens(t).length > 0);
  if (token) return token.toUpperCase();
  return device.replace(/[-_]+/g, ' ').trim() || 'equipment';
}
