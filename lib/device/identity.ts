/**
 * Device identity (issue 39): which device a manual is about, and the one tokenizer and file-name
 * cleaner every reader of device names uses — recognition (lib/ranking/named-device.ts, the
 * library index), the device chip, suggestions, follow-ups and applicability.
 *
 * A device profile per manual, read from the manual itself:
 *   - name: what sentences and labels call it (./name.ts, from the title);
 *   - maker: the capitalised word before a model designation on the title or cover ("Acme HX-200");
 *   - models: the designations of the title, the file name and the cover page, as they are written;
 *   - variants: the variants a slashed list writes out ("ZX-9K/L" → ZX-9K, ZX-9L);
 *   - kind: what sort of device it is, in the manual's own words: the words of the title's device
 *     name that are no designation ("X-9 controller" → "controller"), else the noun phrase after
 *     "is a" / "is an" on its first pages ("The X-9 is a hydraulic press controller").
 * Copies of one manual (the same title under other file names) are one device (`deviceKey`).
 */
import { isStopword, stem, words } from '@/lib/text/analyze';
import { designationTokens, modelCore, modelMentions, writtenDesignations } from './designations';
import { deviceName } from './name';
import { fileNameText, identityTokens } from './tokens';

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
}

/** Pages of the manual read for its identity: the cover and the next ones. */
const PROFILE_PAGES = 3;
/** At most this many words in a kind ("vector network analyzer"). */
const MAX_KIND_WORDS = 3;

/** Words that name a document, not a maker or a kind of device (general knowledge of how manuals are titled). */
const DOCUMENT_WORDS = new Set('manual guide handbook instructions instruction protocol specification datasheet reference notes wiring standard user users quick start service operation operating overview'.split(' '));
const documentWord = (w: string) => DOCUMENT_WORDS.has(w.toLowerCase());

/** A word that can be part of a kind: letters only, not a stop word, not a designation. */
const kindWord = (w: string) => /^\p{L}{2,}$/u.test(w) && !isStopword(w.toLowerCase());

/** "The X-9 is a compact hydraulic press controller for …" → "compact hydraulic press controller" (at most three words, the head last). */
function kindFromProse(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/\bis an? ((?:[\p{L}-]+ ){0,4}[\p{L}-]+)/giu)) {
    const ws = m[1].split(' ');
    const end = ws.findIndex((w) => !kindWord(w));
    const phrase = (end < 0 ? ws : ws.slice(0, end)).slice(-MAX_KIND_WORDS).join(' ').toLowerCase();
    if (phrase) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

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
  const variants = [...new Set(identityTokens(cover).filter((t) => t.includes('/')).flatMap((t) => (words(t).length ? writtenDesignations(t.toLowerCase()) : [])))].filter(
    // Variants of the models named ("hx200a" of HX-200), not values or other codes of a slashed list.
    (v) => cores.has(modelCore(v)) && !cores.has(v),
  );
  // "The" first: a question's (or title's) first word is never read as a maker.
  const mention = modelMentions(`The ${manual.title}`).find((m) => !documentWord(m.text.split(' ')[0]));
  const maker = mention?.text.split(' ')[0];
  // A maker comes before the model, the kind after it ("Acme HX-200 press controller").
  const nameWords = name.split(/\s+/);
  const model = nameWords.findLastIndex((w) => designationTokens(w).length > 0);
  const fromName = model >= 0 ? nameWords.slice(model + 1).filter((w) => kindWord(w) && !documentWord(w)) : [];
  // The title's words after the model, else what the manual says the device is ("… is a handheld spectrum analyzer").
  const kind = fromName.length ? fromName.slice(-MAX_KIND_WORDS).join(' ').toLowerCase() : kindFromProse(cover);
  return { manualId: manual.id, name, ...(maker ? { maker } : {}), models, variants, ...(kind ? { kind } : {}) };
}

interface ProfileLibrary {
  manuals: readonly ProfileManual[];
  pages: ReadonlyArray<{ manualId: string; number: number; text: string }>;
}

const profilesCache = new WeakMap<object, Map<string, DeviceProfile>>();

/** Every manual's profile (cached per library object: the library index is rebuilt when the library changes). */
export function deviceProfiles(library: ProfileLibrary): Map<string, DeviceProfile> {
  const cached = profilesCache.get(library);
  if (cached) return cached;
  const first = new Map<string, string[]>();
  for (const p of library.pages) {
    if (p.number > PROFILE_PAGES) continue;
    const list = first.get(p.manualId) ?? [];
    list[p.number - 1] = p.text;
    first.set(p.manualId, list);
  }
  const out = new Map(library.manuals.map((m) => [m.id, deviceProfile(m, [...(first.get(m.id) ?? [])].map((t) => t ?? ''))]));
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
  const asked = new Set(words(question).filter((w) => !isStopword(w)).map(stem));
  return [...profiles.values()].filter((p) => p.kind && asked.has(headOf(p.kind))).map((p) => p.manualId);
}
