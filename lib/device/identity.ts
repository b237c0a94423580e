/**
 * Device identity: which device a manual is about, and the one tokenizer and file-name cleaner
 * every reader of device names uses — recognition (lib/ranking/named-device.ts, the library
 * index), the device chip, suggestions, follow-ups and applicability.
 *
 * A device profile per manual, read from the manual itself:
 *   - name: what sentences and labels call it (./name.ts, from the title);
 *   - maker: the capitalised word before a model designation on the title or cover ("Acme HX-200");
 *   - models: the designations of the title, the file name and the cover page, as they are written;
 *   - variants: the variants a slashed list writes out ("ZX-9K/L" → ZX-9K, ZX-9L);
 *   - kind: what sort of device it is, in the manual's own words: the head most named by its
 *     title-like text — the title's words after the model ("X-9 controller" → "controller"), short
 *     cover lines after a model, and "The X-9 is a hydraulic press controller" (`readKind`).
 * The profile is stored per manual at ingest and read again when stale (`storedProfile`, `profileFresh`).
 * Copies of one manual (the same title under other file names) are one device (`deviceKey`).
 */
import { isStopword, stem, words } from '@/lib/text/analyze';
import { designationTokens, modelCore, modelMentions, writtenDesignations } from './designations';
import { deviceName, isDocumentWord } from './name';
import { DETERMINER, fileNameText, identityTokens } from './tokens';

/** Copies of one manual (the same title, another file) are one device. */
export const deviceKey = (m: { title: string; fileName?: string }) => (m.title.trim() || m.fileName || '').toLowerCase();

export interface DeviceProfile {
  manualId: string;
  /** As sentences and labels say it ("HX-200 controller"). */
  name: string;
  maker?: string;
  /** Designations of the title, file name and cover, as written, one per model core. */
  models: string[];
  /** Variants written out of slashed lists, lower case without hyphens ("hx200a"). */
  variants: string[];
  /** The device's kind in its manual's words ("hydraulic press controller"); undefined when it says none. */
  kind?: string;
}

interface ProfileManual {
  id: string;
  title: string;
  fileName: string;
  /** The stored profile, when the library read it from the store (used while fresh). */
  profile?: StoredProfile | null;
}

/** Pages of the manual read for its identity: the cover and the next ones. */
const PROFILE_PAGES = 3;
/** At most this many words in a kind ("vector network analyzer"). */
const MAX_KIND_WORDS = 3;

const documentWord = isDocumentWord;

/** A word that can be part of a kind: letters only, not a stop word, not a designation. */
const kindWord = (w: string) => /^\p{L}{2,}$/u.test(w) && !isStopword(w.toLowerCase());

/** A word written as a brand or a code, not a common noun: capitals inside ("ZentroLab", "QuillonX7") or all capitals ("ACMETEK"). */
const brandShaped = (w: string) => /\p{Ll}\p{Lu}/u.test(w) || (w.length > 1 && w === w.toUpperCase() && /\p{Lu}/u.test(w));
/** The common-noun run of a phrase: letters-only words that are no stop, document or brand word, cut at the first other word. */
function nounRun(ws: readonly string[]): string[] {
  const end = ws.findIndex((w) => !kindWord(w) || documentWord(w) || brandShaped(w));
  return (end < 0 ? ws : ws.slice(0, end)).map((w) => w.toLowerCase());
}

/**
 * What kind of device a manual is about, in its own words: the noun phrases its title-like text puts
 * after the device's model (the title "Acme HX-200 press controller", a cover line "HX-200 press
 * controller") or a designation-free title's own words, and what its first pages say the device
 * "is a" (only of the device itself: its model, its name or "it"/"this"). The kind is the phrase
 * whose head — the last word of an English noun phrase, stemmed — these readings name most, the
 * title counting twice; at most three words.
 */
function readKind(name: string, modelWords: ReadonlySet<string>, cover: string): string | undefined {
  const phrases: Array<{ words: string[]; weight: number }> = [];
  // A common noun is written in lower case in running text; a name ("Zentro", "Quillon") is not.
  const lower = new Set(identityTokens(cover).filter((t) => /^\p{Ll}+$/u.test(t)));
  const add = (ws: string[], weight: number, nameLike = false) => {
    const run = ws.slice(-MAX_KIND_WORDS);
    // Words that may be a name (a designation-free title's) count from the first one the cover writes in lower case.
    if (nameLike && lower.size) while (run.length && !lower.has(run[0])) run.shift();
    if (run.length) phrases.push({ words: run, weight });
  };
  const nameWords = name.split(/\s+/);
  const model = nameWords.findLastIndex((w) => designationTokens(w).length > 0);
  if (model >= 0) add(nounRun(nameWords.slice(model + 1)), 2);
  else {
    // No designation in the title: its common nouns, the brand words before them left out.
    const from = nameWords.findLastIndex((w) => brandShaped(w)) + 1;
    add(nounRun(nameWords.slice(from)), 2, true);
  }
  const isModel = (t: string) => modelWords.has(t.toLowerCase()) || designationTokens(t).some((d) => modelWords.has(d.toLowerCase()));
  for (const line of cover.split('\n')) {
    const ts = identityTokens(line);
    // A title-like line: short, and it writes a model of the device.
    if (ts.length > TITLE_LINE_WORDS) continue;
    const at = ts.findLastIndex(isModel);
    if (at >= 0) add(nounRun(ts.slice(at + 1)), 1);
  }
  for (const m of cover.matchAll(/([\p{L}\d-]+) is an? ((?:[\p{L}-]+ ){0,4}[\p{L}-]+)/giu)) {
    const subject = m[1];
    if (!isModel(subject) && !SELF.test(subject)) continue;
    add(nounRun(m[2].split(' ')), 1);
  }
  const byHead = new Map<string, number>();
  for (const p of phrases) byHead.set(stem(p.words.at(-1)!), (byHead.get(stem(p.words.at(-1)!)) ?? 0) + p.weight);
  const head = [...byHead].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!head) return undefined;
  // Of the phrases with that head, the one said most (the first on a tie: the title's).
  const said = new Map<string, number>();
  for (const p of phrases) if (stem(p.words.at(-1)!) === head) said.set(p.words.join(' '), (said.get(p.words.join(' ')) ?? 0) + p.weight);
  return [...said].sort((a, b) => b[1] - a[1])[0][0];
}

/** The device itself as the subject of "… is a": a pronoun or demonstrative (English). */
const SELF = /^(it|this)$/i;
/** A cover line of at most this many words reads as a title, not a sentence. */
const TITLE_LINE_WORDS = 8;

/** The device profile of a manual from its title, file name and first pages. */
export function deviceProfile(manual: ProfileManual, firstPages: readonly string[]): DeviceProfile {
  const name = deviceName(manual.title || fileNameText(manual.fileName));
  const cover = firstPages.slice(0, PROFILE_PAGES).join('\n');
  const models: string[] = [];
  const cores = new Set<string>();
  const named = [...designationTokens(manual.title), ...designationTokens(fileNameText(manual.fileName).replace(/-/g, ' '))];
  // The cover's designations count when they are shaped like a model: short, letters, digits and hyphens.
  const onCover = designationTokens(firstPages[0] ?? '').filter((t) => t.length <= 16 && /^[\p{L}\d-]+$/u.test(t) && /\p{Lu}/u.test(t));
  for (const t of [...named, ...onCover]) {
    const core = modelCore(words(t)[0] ?? t.toLowerCase());
    if (cores.has(core)) continue;
    cores.add(core);
    models.push(t);
  }
  const variants = [
    ...new Set(
      identityTokens(cover)
        .filter((t) => t.includes('/'))
        .flatMap((t) => (words(t).length ? writtenDesignations(t.toLowerCase()) : [])),
    ),
  ].filter(
    // Variants of the models named ("hx200a" of HX-200), not values or other codes of a slashed list.
    (v) => cores.has(modelCore(v)) && !cores.has(v),
  );
  // "The" first: a question's (or title's) first word is never read as a maker.
  const mention = modelMentions(`The ${manual.title}`).find((m) => !documentWord(m.text.split(' ')[0]));
  const maker = mention?.text.split(' ')[0];
  // The models of the title and file name (as written and lower case), for reading title-like lines.
  const modelWords = new Set(named.map((t) => t.toLowerCase()));
  const kind = readKind(name, modelWords, cover);
  return { manualId: manual.id, name, ...(maker ? { maker } : {}), models, variants, ...(kind ? { kind } : {}) };
}

/** A profile as the store keeps it: the title and file name it was read from, and the reader's version. */
export interface StoredProfile extends Omit<DeviceProfile, 'manualId'> {
  version: number;
  basis: string;
}
/** The reader's version: a stored profile of another version is read again. */
const PROFILE_VERSION = 2;
// JSON, not a NUL-joined string: Postgres' jsonb refuses \u0000.
const basisOf = (m: { title: string; fileName: string }) => JSON.stringify([m.title, m.fileName]);

/** The profile to store for a manual. */
export function storedProfile(manual: ProfileManual, firstPages: readonly string[]): StoredProfile {
  const { manualId: _, ...rest } = deviceProfile(manual, firstPages);
  return { ...rest, version: PROFILE_VERSION, basis: basisOf(manual) };
}

/** Whether a stored profile still holds: read by this reader from this title and file name. */
export const profileFresh = (manual: ProfileManual, stored: StoredProfile | null | undefined): stored is StoredProfile =>
  !!stored && stored.version === PROFILE_VERSION && stored.basis === basisOf(manual);

/** The pages a profile is read from (the cover and the next ones), by number. */
export const profilePages = (numbers: readonly number[]) => numbers.filter((n) => n >= 1 && n <= PROFILE_PAGES);

interface ProfileLibrary {
  manuals: readonly ProfileManual[];
  pages: ReadonlyArray<{ manualId: string; number: number; text: string }>;
}

const profilesCache = new WeakMap<object, Map<string, DeviceProfile>>();

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Whether a manual calls its device by the kind read for it: the kind's head after a determiner,
 * at most two words between ("the analyzer", "this temperature regulator"), on some page. A head
 * read off a title that is no kind ("… Interface Introduction", "… Serial Digital") never is.
 */
function callsItsKind(kind: string, texts: readonly string[]): boolean {
  const head = escapeRegExp(kind.split(' ').at(-1)!);
  const called = new RegExp(`\\b${DETERMINER.source.slice(1, -1)}\\s+(?:[\\p{L}-]+\\s+){0,2}${head}s?\\b`, 'iu');
  return texts.some((t) => called.test(t));
}

/**
 * Every manual's profile (cached per library object: the library index is rebuilt when the
 * library changes). Kinds count only where the manual calls its device so (`callsItsKind`).
 */
export function deviceProfiles(library: ProfileLibrary): Map<string, DeviceProfile> {
  const cached = profilesCache.get(library);
  if (cached) return cached;
  const first = new Map<string, string[]>();
  const texts = new Map<string, string[]>();
  for (const p of library.pages) {
    texts.set(p.manualId, [...(texts.get(p.manualId) ?? []), p.text]);
    if (p.number > PROFILE_PAGES) continue;
    const list = first.get(p.manualId) ?? [];
    list[p.number - 1] = p.text;
    first.set(p.manualId, list);
  }
  const read = (m: ProfileManual): DeviceProfile => {
    if (profileFresh(m, m.profile)) {
      const { version: _v, basis: _b, ...p } = m.profile;
      return { manualId: m.id, ...p };
    }
    return deviceProfile(
      m,
      [...(first.get(m.id) ?? [])].map((t) => t ?? ''),
    );
  };
  const out = new Map(
    library.manuals.map((m) => {
      const { kind, ...p } = read(m);
      return [m.id, kind && callsItsKind(kind, texts.get(m.id) ?? []) ? { ...p, kind } : p];
    }),
  );
  profilesCache.set(library, out);
  return out;
}

/** A kind's head: its last word, stemmed ("analyzers" and "analyzer" → one head). */
const headOf = (kind: string) => stem(kind.split(' ').at(-1)!.toLowerCase());

/**
 * The manuals whose device kind a question refers to ("the controller", "my analyzer"): the
 * question holds the head word of their kind. Empty when it refers to no kind of the library.
 */
export function manualsOfKind(question: string, profiles: ReadonlyMap<string, DeviceProfile>): string[] {
  const asked = new Set(
    words(question)
      .filter((w) => !isStopword(w))
      .map(stem),
  );
  return [...profiles.values()].filter((p) => p.kind && asked.has(headOf(p.kind))).map((p) => p.manualId);
}

/** Words naming a device belong to at most this share of the library's manuals (lib/ranking/named-device.ts too). */
export const DEVICE_WORD_SHARE = 1 / 3;

/**
 * Identity words per device: copies of one manual are one device, so a library holding five copies
 * of one manual and one other still has two devices, and the copies' shared name still names one
 * of them. A copy has the same title under another file name, or the same pages under another
 * title (a renamed copy): `contentOf` gives a manual's pages as a key (LibraryIndex.contentKey).
 */
export function identitiesByDevice(
  manuals: ReadonlyArray<{ id: string; title: string; fileName?: string }>,
  identityWords: ReadonlyMap<string, ReadonlySet<string>>,
  contentOf: (manualId: string) => string | undefined = () => undefined,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const deviceOfContent = new Map<string, string>();
  for (const m of manuals) {
    const content = contentOf(m.id);
    const key = (content && deviceOfContent.get(content)) || deviceKey(m);
    if (content && !deviceOfContent.has(content)) deviceOfContent.set(content, key);
    const set = out.get(key) ?? new Set<string>();
    for (const w of identityWords.get(m.id) ?? []) set.add(w);
    out.set(key, set);
  }
  return out;
}

/**
 * The question's words that name some device of the library, for reading a follow-up (a question
 * naming none keeps the previous question's device): words in the identity of at most
 * DEVICE_WORD_SHARE of the devices (`identities` per device: identitiesByDevice). Any case: "and
 * the hx-200?" names one.
 */
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
