/**
 * Which of a question's words name a device of the library, read three ways: the
 * manual it names (`namedDevice`, below), per retrieved manual the terms naming its device
 * (`deviceTermsOf`, for the answer writer) and whether it names any device at all (`deviceWords`
 * of lib/device/identity.ts, for reading a follow-up). They answer different questions with different evidence (name words
 * written as names; identity words concentrated in one manual; identity words of few manuals),
 * so they stay three functions side by side: reading follow-ups with namedDevice's words instead
 * changed 40 of the eval's 206 questions, unnamed follow-ups' R@1 0.59 → 0.44 (docs/eval.md).
 *
 * The device a question names: "How do I calibrate the Kappa VNA-10?" names the manual whose
 * title, file name or cover designations say "VNA-10". One manual named → its pages
 * come first (the agent searches it alone, lib/agent/device-context.ts); two or more named equally
 * ("Acme", when two Acme controllers share the library) → ambiguous, and nothing is filtered.
 *
 * A word names a set of manuals when
 *   - the question writes it as a name (a capital or a digit: "Zentro", "HX-200"; not "board"), and
 *   - it is one of their name words: a word of the title or the file name, or a designation
 *     (letters and digits, "QX-40", "HX-300") of the cover page — or a part of such a word
 *     ("zentro" of "zentroqx40"). Running headers were tried and left out: a protocol's
 *     "ERR" on most of its pages named it in a question about another device's error, and
 *   - most of the places that hold it are those manuals' (their pages, and their name itself): a
 *     title's "motor" or "board" is on every kind of manual's pages; "VNA-10" is on the VNA-10
 *     guide's, and
 *   - at most a third of the library's devices have it (the follow-up reading's device share;
 *     copies of one manual, the same title under other file names, are one device).
 * The named manual is the one most of the question's naming words point to; a tie is ambiguous
 * (unless the tied manuals are copies of one manual, the same title under other file names),
 * so siblings ("Kappa VNA-10" / "Kappa VNA-20", "Acme HX-200" / "Acme HX-300") never swap: a
 * word shared by both counts for both, and only a word of one decides.
 */
import { distinctTerms, isStopword, matchTerms, words } from '../text/analyze';
import { EDITION, nameText, trimToken, writtenAsName } from '../device/tokens';
import { DEVICE_WORD_SHARE, deviceKey, deviceProfiles, manualsOfKind } from '../device/identity';
import type { LibraryIndex } from './library-index';

export interface NamedDevice {
  /** The named manuals: none, one device's (copies of its manual share the title), or several devices' (ambiguous). */
  manualIds: string[];
  /** The manuals named are of different devices (different titles): nothing is filtered. */
  ambiguous: boolean;
  /** The question's words that name them. */
  words: string[];
  /** The question's tokens holding those words, as it writes them ("HX-200C"). */
  written: string[];
}

/** Words naming a device's manuals: most of the places holding them are those manuals' (the answer's device terms too). */
const NAME_CONCENTRATION = 0.5;
/** A part of a compound name word counts from this length ("zentro" of "zentroqx40"; not "max"). */
const MIN_PART = 4;

const designationShaped = (w: string) => w.length >= 3 && /\p{L}/u.test(w) && /\d/.test(w);

const nameWordsCache = new WeakMap<LibraryIndex, Map<string, Set<string>>>();

/** Per manual, its name words: title, file name, and the designations of its cover (a model table). */
function nameWords(index: LibraryIndex): Map<string, Set<string>> {
  let out = nameWordsCache.get(index);
  if (out) return out;
  out = new Map();
  for (const m of index.manuals) {
    const set = new Set(words(nameText(m)));
    for (const w of index.identityWords.get(m.id) ?? []) if (designationShaped(w)) set.add(w);
    for (const w of [...set]) if (isStopword(w) || w.length < 2 || EDITION.test(w)) set.delete(w);
    out.set(m.id, set);
  }
  nameWordsCache.set(index, out);
  return out;
}

/**
 * The share of the places holding a word that are those manuals': their pages holding it, plus
 * their name itself (a title counts as one place), so a designation a sibling's page also lists
 * ("HX-200" in a power supply's list of loads) still belongs to the manual it names.
 * The best of the word's terms.
 */
function nameShare(index: LibraryIndex, terms: readonly string[], manuals: readonly string[]): number {
  const own = new Set(manuals);
  let best = 0;
  for (const t of terms) {
    let inOwn = manuals.length;
    let all = manuals.length;
    index.pageTermSets.forEach((set, i) => {
      if (!set.has(t)) return;
      all++;
      if (own.has(index.pages[i].manualId)) inOwn++;
    });
    best = Math.max(best, inOwn / all);
  }
  return best;
}

/** Whether a question word is, or is a long enough part of, a name word. */
const partOf = (word: string, name: string) => word === name || (word.length >= MIN_PART && name.includes(word));

/** The manuals a question names, or several when the name is ambiguous (see the header). */
export function namedDevice(question: string, index: LibraryIndex, within?: readonly string[]): NamedDevice {
  const names = nameWords(index);
  const scope = within?.length ? new Set(within) : null;
  // Devices, not files: copies of one manual (the same title) count once.
  const device = (id: string) => deviceKey(index.manuals[index.manualIndexOf.get(id)!]);
  const limit = Math.max(1, new Set(index.manuals.map((m) => device(m.id))).size * DEVICE_WORD_SHARE);
  const votes = new Map<string, number>();
  const naming: string[] = [];
  const tokens = question
    .trim()
    .split(/\s+/)
    .map(trimToken)
    .filter((t, i) => writtenAsName(t, i === 0));
  for (const w of new Set(tokens.flatMap((t) => words(t)))) {
    if (isStopword(w) || w.length < 2 || EDITION.test(w)) continue;
    const manuals = [...names].filter(([, set]) => set.has(w) || [...set].some((n) => partOf(w, n))).map(([id]) => id);
    if (manuals.length === 0 || new Set(manuals.map(device)).size > limit) continue;
    if (nameShare(index, distinctTerms(w), manuals) <= NAME_CONCENTRATION) continue;
    const inScope = scope ? manuals.filter((id) => scope.has(id)) : manuals;
    if (inScope.length === 0) continue;
    naming.push(w);
    for (const id of inScope) votes.set(id, (votes.get(id) ?? 0) + 1);
  }
  const top = Math.max(0, ...votes.values());
  const written = tokens.filter((t) => words(t).some((w) => naming.includes(w)));
  const manualIds = [...votes]
    .filter(([, v]) => v === top)
    .map(([id]) => id)
    .sort();
  // Copies of one manual (the same title, another file) are one device's manuals, not an ambiguity.
  return { manualIds, ambiguous: new Set(manualIds.map(device)).size > 1, words: naming, written: [...new Set(written)] };
}

/**
 * Per manual, the question's terms that name its device, for the answer writer (which weighs them
 * little): words of the manual's identity (title, file name, cover page), found mostly in that
 * manual — a contents page on the cover names "power" too — and in its title or on most of its
 * pages (LibraryIndex.namesDevice).
 */
export function deviceTermsOf(index: LibraryIndex, manualIds: readonly string[], question: string): Record<string, string[]> {
  const questionWords = words(question);
  const out: Record<string, string[]> = {};
  for (const id of manualIds) {
    const ws = questionWords.filter((w) => index.identityWords.get(id)?.has(w));
    const ts = matchTerms(ws.join(' ')).filter((t) => index.termConcentration(t, id) > NAME_CONCENTRATION && index.namesDevice(t, id));
    if (ts.length) out[id] = ts;
  }
  return out;
}

/**
 * The device a question refers to by its kind alone ("the analyzer", "my TV"): the manuals whose
 * kind's head the question holds (lib/device/identity.ts), when they are one device's and the head
 * names them — most of the pages holding it are theirs, as for a name word, so a kind such as
 * "board" that every manual's pages use narrows nothing. Several devices of that kind, or none:
 * undefined (the library cannot tell; the reply may ask).
 */
export function namedKind(question: string, index: LibraryIndex): NamedDevice | undefined {
  const profiles = deviceProfiles(index);
  const ids = manualsOfKind(question, profiles);
  if (!ids.length || new Set(ids.map((id) => deviceKey(index.manuals[index.manualIndexOf.get(id)!]))).size > 1) return undefined;
  const kind = profiles.get(ids[0])!.kind!;
  const head = kind.split(' ').at(-1)!;
  if (nameShare(index, distinctTerms(head), ids) <= NAME_CONCENTRATION) return undefined;
  return { manualIds: ids, ambiguous: false, words: [head], written: [kind] };
}
