/**
 * Devices a question names by maker and model: a capitalised word followed by a model designation,
 * a token of letters and digits ("Rigol DP832", "Yaesu FT-65", "Acme HX-200"). A quantity is not
 * a designation ("24V", "1400mAh": js-quantities reads them, ./quantities.ts), and neither is a
 * designation after a lower-case word ("move to Y150", "the NMC811 preset"): without the maker's
 * name the token may as well be a coordinate, a code or a chemistry.
 *
 * A token that reads as a quantity is still a model right after a maker's name ("Acme 48V",
 * "Zentro 3015BE"): a word written like a name — a capital then lower case, so not an acronym
 * qualifying a value ("DC 24V", "AC 230V") — that is not a stop word and does not start a sentence
 * ("Apply 24V …", "The 24V supply …").
 */
import { isStopword, words } from '@/lib/text/analyze';
import { valueKinds } from '@/lib/text/quantities';
import { DETERMINER, identityTokens as tokensOf, trimToken } from './tokens';

export interface ModelMention {
  /** As the question writes it: "Rigol DP832". */
  text: string;
  /** The designation's word ("dp832"), as the library's indexes spell it. */
  model: string;
}

const MAKER = /^\p{Lu}[\p{L}-]+$/u;
/** A maker's name written as a name ("Fluke", "Acme"), not an acronym ("DC", "RMS"). */
const NAME = /^\p{Lu}\p{Ll}[\p{L}-]*$/u;
const SENTENCE_END = /[.!?:;]["')\]]*$/u;
/** Hyphen-joined parts of letters and digits, the first with a letter ('QX-40B', 'AB12-CD3'; not '3-pin'). */
const HYPHENATED_MODEL = /^(?=.*\d)[\p{L}\d]*\p{L}[\p{L}\d]*(?:-[\p{L}\d]+)+$/u;

/** Letters and digits, at least three characters: the shape of a model, a code or a value. */
const designationShaped = (token: string) => token.length >= 3 && /\p{L}/u.test(token) && /\d/.test(token);
/** A value is a number, then its unit ("24V", "1400mAh"); "QX-40A" or "DP832A" is no current. */
const isQuantity = (token: string) => /^[\d.,]/.test(token) && (valueKinds(token).size > 0 || valueKinds(token.replace(/(\d)(\p{L})/u, '$1 $2')).size > 0);

/** The token as the library's indexes spell it ("DP832" → "dp832"), when it is a designation. */
function designationWord(token: string): string | undefined {
  // "24V", "1400mAh", "5 V" written as one token are values, not models.
  if (!designationShaped(token) || isQuantity(token)) return undefined;
  return words(token)[0];
}

/**
 * A model's core: hyphens out and, when letters remain after it, a variant's letter suffix too
 * ("qx-40a" → "qx40", "dp832" → "dp832"). A designation whose core would be a bare number
 * ("87v", "3015be") keeps its letters: "87" or "3015" alone names nothing.
 */
export function modelCore(word: string): string {
  const joined = word.replace(/-/g, '');
  if (!/\d/.test(joined)) return joined;
  const core = joined.replace(/(\d)\p{L}+$/u, '$1');
  return /\p{L}/u.test(core) ? core : joined;
}

/**
 * A designation's stem and variant suffix ("qx-40c" → qx40 + c; "3015be" → 3015 + be), or
 * undefined without one. A suffix is 1–3 letters: a longer run is words ("qx40a-service-manual" of a
 * file name), not a variant.
 */
export function variantOf(word: string): { stem: string; suffix: string } | undefined {
  const m = word.replace(/-/g, '').match(/^(.*\d)(\p{L}{1,3})$/u);
  return m && /\p{L}/u.test(word) ? { stem: m[1], suffix: m[2] } : undefined;
}

/** Every designation-shaped word of a text ("AcmeOS3", "V1.2", "DP832"), as the indexes spell them. */
export function designations(text: string): string[] {
  return tokensOf(text)
    .map(designationWord)
    .filter((w): w is string => !!w);
}

/** The designation-shaped tokens of a text as it writes them ("HX-200", "AC-PT400"; "FT-65's" → "FT-65"), in order: for display. */
export function designationTokens(text: string): string[] {
  return tokensOf(text)
    .map((t) => t.replace(/['’]s$/u, ''))
    .filter((t) => designationWord(t) !== undefined);
}

/**
 * Maker + model mentions of a question, in order. The question's first word is not taken for a
 * maker; before a token that reads as a quantity, the maker must be a name that starts no sentence.
 */
export function modelMentions(question: string): ModelMention[] {
  const raw = question.split(/\s+/).filter((t) => trimToken(t));
  const out: ModelMention[] = [];
  for (let i = 2; i < raw.length; i++) {
    const [maker, model] = [trimToken(raw[i - 1]), trimToken(raw[i])];
    if (!MAKER.test(maker)) continue;
    let word = designationWord(model);
    if (
      !word &&
      designationShaped(model) &&
      NAME.test(maker) &&
      !isStopword(maker.toLowerCase()) &&
      !SENTENCE_END.test(raw[i - 2]) &&
      !SENTENCE_END.test(raw[i - 1])
    )
      word = words(model)[0];
    if (word) out.push({ text: `${maker} ${model}`, model: word });
  }
  // A device named by its hyphenated model alone, as a thing ("a QX-40B board", "the HX-200
  // controller"): a determiner, then the model, then a word. A bare code or pin ("the SW6
  // switch", "an E05 error") has no hyphenated parts and stays a code.
  for (let i = 1; i + 1 < raw.length; i++) {
    const [before, model, after] = [trimToken(raw[i - 1]), trimToken(raw[i]), trimToken(raw[i + 1])];
    if (!DETERMINER.test(before) || !HYPHENATED_MODEL.test(model) || SENTENCE_END.test(raw[i])) continue;
    if (!/^\p{Ll}{3,}$/u.test(after) || isStopword(after)) continue;
    const word = designationWord(model);
    if (word && !out.some((m) => m.model === word)) out.push({ text: model, model: word });
  }
  return out;
}

/**
 * The designations a word of a page writes, hyphens out: itself, and for a slashed list of
 * variants each one ("qx-40a/b" → qx40a, qx40b; "dp831a/dp832" → dp831a, dp832).
 */
export function writtenDesignations(word: string): string[] {
  const parts = word.replace(/-/g, '').split('/').filter(Boolean);
  const out: string[] = [];
  let last: { stem: string } | undefined;
  for (const part of parts) {
    if (last && /^\p{L}{1,3}$/u.test(part)) out.push(last.stem + part);
    else {
      out.push(part);
      last = variantOf(part);
    }
  }
  return out;
}

/** An error code as manuals print them ("E01", "ERR12", "AL-3"): a code, not a model. */
export const ERROR_CODE = /\b(?:E|F|ERR|AL)[-\s]?\d{1,3}\b/;
export const isErrorCode = (token: string) => ERROR_CODE.exec(token)?.[0] === token;
