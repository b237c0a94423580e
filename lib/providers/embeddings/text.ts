/**
 * Text normalisation and tokenisation shared by the offline embedder (and the measurement
 * script's BM25). Tuned for manuals: OCR-merged tokens ("GNDPA8+5U"), numbers with units
 * ("3.3 V" vs "3.3V"), part numbers ("ESP32-POE"), Unicode minus signs.
 */

// Short units that manuals write both attached and detached from the number.
const UNITS =
  'v|mv|kv|vdc|vac|a|ma|ua|µa|μa|w|mw|kw|hz|khz|mhz|ghz|db|dbm|dbi|ohm|ohms|kohm|mohm|ω|kω|mω|mm|cm|m|ms|us|µs|μs|ns|s|°c|c|%|mah|ah|pf|nf|uf|µf|μf|mh|uh|µh|μh|kb|mb|gb|kbps|mbps|rpm|nm|g|kg|bit|bits';
const DETACHED_UNIT = new RegExp(`(\\d)\\s+(${UNITS})(?![\\p{L}\\p{N}])`, 'giu');

/**
 * NFKC, unified dashes/minus and apostrophes, possessives dropped ("DLC32's" → "DLC32"),
 * contractions closed ("doesn't" → "doesnt"), numbers joined to their units ("3.3 V" → "3.3V").
 * Case is kept: the tokenizer needs it to tell acronyms ("CAN", "IN") from stopwords.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\uFE63\uFF0D]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B\u02BC`´]/g, "'")
    .replace(/([\p{L}\p{N}])'s(?![\p{L}\p{N}])/giu, '$1')
    .replace(/([\p{L}])'([\p{L}])/gu, '$1$2')
    .replace(DETACHED_UNIT, '$1$2');
}

export interface Token {
  /** Lower-cased token with inner punctuation removed except decimal points ("3.3v", "gndpa85u"). */
  text: string;
  /** 1 for whole tokens; lower for the parts of a compound ("esp32" and "poe" of "esp32-poe"). */
  weight: number;
  /** Written in capitals in the source ("CAN", "GND"): never treated as a stopword. */
  acronym: boolean;
}

const PIECE = /[^\s]+/gu;
const DECIMAL = /(\p{N})[.,](?=\p{N})/gu;
const NON_WORD = /[^\p{L}\p{N}\u0000]+/u;

/**
 * Tokens of normalised text. A whitespace piece yields its compound form, and if it has
 * punctuation inside (other than decimal points), also its parts at `partWeight`.
 */
export function tokenize(normalized: string, partWeight = 0.5): Token[] {
  const out: Token[] = [];
  for (const m of normalized.matchAll(PIECE)) {
    // Protect decimal points (3.3 ≠ 33) while splitting on every other punctuation mark.
    const parts = m[0]
      .replace(DECIMAL, '$1\u0000')
      .split(NON_WORD)
      .filter(Boolean)
      .map((p) => p.replace(/\u0000/g, '.'));
    if (parts.length === 0) continue;
    const raw = parts.join('');
    const acronym = raw.length >= 2 && /\p{Lu}/u.test(raw) && !/\p{Ll}/u.test(raw);
    const compound = raw.toLowerCase();
    out.push({ text: compound, weight: 1, acronym });
    if (parts.length > 1 && partWeight > 0) {
      for (const p of parts) out.push({ text: p.toLowerCase(), weight: partWeight, acronym });
    }
  }
  return out;
}

/** True for function words, unless the source wrote them as an acronym ("CAN bus", "IN pin"). */
export function isStopword(t: Token): boolean {
  return !t.acronym && STOPWORDS.has(t.text);
}

/** Lower-case alphanumeric runs: the plain tokenizer a BM25 index uses. */
export function simpleTokens(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

// Function words and question scaffolding: they match every page, so they only add noise.
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t d ll m o re ve y get got use used using want need one also may ' +
    'must shall might let lets im dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt wouldnt ' +
    'thats theres whats hows ive youre theyre tell give'
  ).split(/\s+/),
);
