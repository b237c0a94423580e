/**
 * A question asked without its device's name: the words naming the device — its maker, model
 * designations, listed variants and the words of its name, as its profile (./identity.ts) gives
 * them — taken out, with the article and preposition that only led to them ("What is the fuse of
 * the Acme HX-200?" → "What is the fuse?"). The kind stays ("the HX-200 controller" → "the
 * controller"): a technician who names no device still says which sort it is. The eval asks every
 * question that names its own device this way too (lib/eval/run.ts, `--unnamed`).
 */
import { isStopword, words } from '@/lib/text/analyze';
import type { DeviceProfile } from './identity';
import { modelCore } from './designations';
import { isDocumentWord } from './name';
import { DETERMINER, EDITION, trimToken, writtenAsName } from './tokens';

/** English prepositions that lead to a noun phrase ("of the …", "on the …"). */
const PREPOSITION = /^(of|on|for|in|with|from|by|at|about|to|into|inside|onto)$/i;
/** Words after which a noun phrase has ended ("the HX-200 as a …", "the HX-200 when …"). */
const PHRASE_END = /^(of|on|for|in|with|from|by|at|about|to|into|inside|onto|as|when|while|so|and|or|but|if)$/i;
/** An edition marker written with its letter or point ("V3.1", "v4", "Rev"), part of the name it follows. */
const editionMarker = (t: string) => /^rev$/i.test(t) || (EDITION.test(t.toLowerCase()) && /[a-z.]/i.test(t));
/** Sentence punctuation a removed token may end with, kept for the words before it. */
const CLAUSE_MARK = /[?.!,;:]+$/;

const possessiveless = (t: string) => t.replace(/[’']s$/i, '');
/** A word's spellings compared: as written, and without hyphens (a model core, a variant "hx200a"). */
const spellings = (w: string) => [w, w.replace(/-/g, ''), modelCore(w)];

interface Options {
  /** Tokens to remove as written (the recognizer's own reading of the question, lib/ranking/named-device.ts). */
  also?: readonly string[];
  /**
   * Whether a token of the profile names the device in its library: a profile also lists
   * designations that are channels, interfaces or coordinates ("CH2", "CAN1"), which stay.
   */
  names?: (token: string) => boolean;
}

/** The question without the words naming the profile's device (see the header). */
export function withoutDeviceNames(
  question: string,
  profile: Pick<DeviceProfile, 'name' | 'maker' | 'models' | 'variants' | 'kind'>,
  opts: Options = {},
): string {
  const kind = new Set(words(profile.kind ?? ''));
  const named = (text: string) =>
    new Set(
      words(text)
        .flatMap(spellings)
        .filter((w) => !kind.has(w) && !isStopword(w) && !isDocumentWord(w)),
    );
  // Maker and models name the device however written; a word of its name only when written as a name.
  const always = named([profile.maker ?? '', ...profile.models, ...profile.variants].join(' '));
  const asName = named(profile.name);
  const extra = new Set((opts.also ?? []).map((t) => t.toLowerCase()));
  const names = opts.names ?? (() => true);
  const raw = question.trim().split(/\s+/);
  const named0 = raw.map((r, i) => {
    const t = possessiveless(trimToken(r));
    if (!t) return false;
    if (extra.has(t.toLowerCase()) || extra.has(trimToken(r).toLowerCase())) return true;
    const ws = words(t);
    if (!ws.length) return false;
    const ofProfile =
      ws.every((w) => spellings(w).some((s) => always.has(s))) ||
      (writtenAsName(t, i === 0) && ws.every((w) => spellings(w).some((s) => always.has(s) || asName.has(s))));
    return ofProfile && names(t);
  });
  // A name's edition goes with it ("Acme HX-200 V3.1", "Rev 4 QX-40").
  const removed = named0.map((r, i) => {
    if (r) return true;
    const t = trimToken(raw[i]);
    const touches = (k: number) => named0[k] === true;
    if (editionMarker(t) && touches(i - 1)) return true;
    if (/^rev$/i.test(t) && EDITION.test(trimToken(raw[i + 1] ?? '').toLowerCase()) && touches(i + 2)) return true;
    return /^\d{1,2}$/.test(t) && /^rev$/i.test(trimToken(raw[i - 1] ?? '')) && touches(i + 1);
  });
  const kept: string[] = [];
  for (let i = 0; i < raw.length;) {
    if (!removed[i]) {
      kept.push(raw[i++]);
      continue;
    }
    let j = i;
    while (j < raw.length && removed[j]) j++;
    const mark = CLAUSE_MARK.exec(raw[j - 1])?.[0] ?? '';
    const next = raw[j];
    // The name ended its phrase ("… of the HX-200?", "… the HX-200 in …"): its article and preposition go too.
    const phraseEnd = mark !== '' || next === undefined || PHRASE_END.test(next);
    if (phraseEnd) {
      if (kept.length && DETERMINER.test(kept.at(-1)!)) kept.pop();
      if (kept.length && PREPOSITION.test(kept.at(-1)!)) kept.pop();
    }
    if (mark && kept.length && !CLAUSE_MARK.test(kept.at(-1)!)) kept[kept.length - 1] += mark;
    i = j;
  }
  const text = kept.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
