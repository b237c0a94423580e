/**
 * Devices a question names by maker and model: a capitalised word followed by a model designation,
 * a token of letters and digits ("Rigol DP832", "Yaesu FT-65", "Acme HX-200"). A quantity is not
 * a designation ("24V", "1400mAh": js-quantities reads them, ./quantities.ts), and neither is a
 * designation after a lower-case word ("move to Y150", "the NMC811 preset"): without the maker's
 * name the token may as well be a coordinate, a code or a chemistry.
 */
import { words } from './analyze';
import { valueKinds } from './quantities';

export interface ModelMention {
  /** As the question writes it: "Rigol DP832". */
  text: string;
  /** The designation's word ("dp832"), as the library's indexes spell it. */
  model: string;
}

const MAKER = /^\p{Lu}[\p{L}-]+$/u;
const tokensOf = (text: string) =>
  text
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

/** The token as the library's indexes spell it ("DP832" → "dp832"), when it is a designation. */
function designationWord(token: string): string | undefined {
  if (token.length < 3 || !/\p{L}/u.test(token) || !/\d/.test(token)) return undefined;
  // "24V", "1400mAh", "5 V" written as one token are values, not models.
  if (valueKinds(token).size > 0 || valueKinds(token.replace(/(\d)(\p{L})/u, '$1 $2')).size > 0) return undefined;
  return words(token)[0];
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

/** Maker + model mentions of a question, in order. The question's first word is not taken for a maker. */
export function modelMentions(question: string): ModelMention[] {
  const tokens = tokensOf(question);
  const out: ModelMention[] = [];
  for (let i = 2; i < tokens.length; i++) {
    const [maker, model] = [tokens[i - 1], tokens[i]];
    const word = MAKER.test(maker) ? designationWord(model) : undefined;
    if (word) out.push({ text: `${maker} ${model}`, model: word });
  }
  return out;
}
