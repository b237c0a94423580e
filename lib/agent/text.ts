/**
 * Small lexical toolkit shared by the offline parts of the agent: skill matching, the extractive
 * answer, the offline summary, the lexical answer check and the rules decider's evidence test.
 * Deliberately dependency-free and deterministic so offline answers are reproducible.
 */

// Function words and question scaffolding: they appear in every passage, so they carry no evidence.
const STOPWORDS = new Set(
  (
    'a an the and or but nor of to in on at by for from with without into onto over under about above below ' +
    'between through during within via ' +
    'as is are was were be been being am do does did doing done have has had having can could will would ' +
    'shall should may might must i me my mine we us our you your he him his she her it its they them their ' +
    'this that these those there here what which who whom whose when where why how whats what\'s ' +
    'if then than so such not no yes also just only very too more most much many some any each every ' +
    'all both either neither other another same own one ones get got make makes made put puts want wants ' +
    'need needs use uses used using tell says say said please thanks thank let lets know find give show ' +
    'according manual manuals document documentation page pages doesn isn aren don t s'
  ).split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:[.\-+/][\p{L}\p{N}]+)*/gu;

/** Lower-case word tokens; keeps part numbers and decimals whole ("stm32f072", "3.3", "esp32-poe"). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .match(WORD) ?? []
  );
}

/** A light suffix stripper: enough to match "codes"/"code", "wiring"/"wire" without a dictionary. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3).replace(/(.)\1$/, '$1');
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2).replace(/(.)\1$/, '$1');
  if (word.endsWith('es') && /(ch|sh|x|ss|z)es$/.test(word)) return word.slice(0, -2);
  let w = word;
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  // A final silent e goes too, so "replace"/"replaces" meet "replacing"/"replaced" (all "replac"),
  // and "wire" meets "wiring".
  if (w.endsWith('e') && w.length > 3 && !w.endsWith('ee')) w = w.slice(0, -1);
  // "weigh" meets "weight", "high" "height".
  if (w.endsWith('ght')) w = w.slice(0, -1);
  return w;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Stemmed tokens without stop words (duplicates kept, for term frequencies). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    // A lone letter is noise unless it is a digit ("port 0").
    if (w.length < 2 && !/\d/.test(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/** The distinct content terms of a question, in order of first appearance. */
export function contentTerms(text: string): string[] {
  return [...new Set(terms(text))];
}

// Units that follow a number in specifications. "3.3 V" and "3.3V" must meet as one term.
// (NFKC has already turned the micro sign into Greek mu and "²" into "2".)
const UNIT =
  /^(?:[kmμu]?v|[kmμun]?a|[kmμ]?w|[kmg]?hz|[kmμ]?(?:ohms?|ω)|[pnμum]?f|[μum]?h|mah|ah|[mk]?wh|nm|[mck]?m|mm2|[km]?g|[mμun]?s|bar|mbar|psi|[km]?pa|db|dbm|dbi|c|rpm|[kmg]?b|bits?|baud|bps|v\/div|mv\/div|ms\/s|ks\/s|gs\/s|mbps|kbps)$/u;
const NUMBER = /^\d+(?:[.,]\d+)?$/;
const ABBREVIATED_NUMBER = /\b(part|serial|order|item|catalog(?:ue)?|model|article|drawing|document|ref(?:erence)?)\s+no\./gi;
const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  'two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => [w, String(i + 2)]),
);
const NUMBER_UNIT = /^(\d+(?:\.\d+)?)([^\d.].*)$/u;

/**
 * Terms for ranking passages: `terms` plus the variants a technician and a manual write
 * differently. A number and its unit become one term whether or not a space separates them
 * ("3.3 V" = "3.3V" → 3.3v, and the bare 3.3); compounds also give their parts
 * ("ESP32-POE-ISO" → esp32-poe-iso, esp32, poe, iso) and codes their letter prefix
 * ("IP65" → ip65, ip), so a partial name still matches.
 *
 * For a query, pass `known` (is the term in the index?): a compound or code the index knows is
 * then searched as itself only, and its parts are a fallback for one it does not know, so a
 * device name like "HX-200" counts once, not as hx-200 + hx + 200.
 */
export function searchTerms(text: string, known?: (term: string) => boolean): string[] {
  return searchTermGroups(text, known).flat();
}

/**
 * `searchTerms` grouped by the word they come from ("HX-200" → [hx-200] or, unknown, [hx, 200]):
 * a question word counts once when measuring how much of the question an answer covers.
 */
export function searchTermGroups(text: string, known?: (term: string) => boolean): string[][] {
  const groups: string[][] = [];
  // "ten boards" must meet "10 of these boards"; "Part no." is a part number.
  const ws = words(text.replace(ABBREVIATED_NUMBER, '$1 number')).map((w) => NUMBER_WORDS[w] ?? w);
  ws.forEach((w, i) => {
    const out: string[] = [];
    const push = (x: string) => {
      if (STOPWORDS.has(x) || (x.length < 2 && !/\d/.test(x))) return;
      out.push(stem(x));
    };
    const prefixOf = (x: string) => {
      const prefix = x.match(/^(\p{L}{2,})\d/u);
      if (prefix && !STOPWORDS.has(prefix[1])) out.push(prefix[1]);
    };
    const bareNumber = (x: string) => {
      const glued = x.match(NUMBER_UNIT);
      if (glued && UNIT.test(glued[2])) out.push(glued[1]);
    };
    const next = ws[i + 1];
    if (NUMBER.test(w) && next && UNIT.test(next)) out.push(`${w}${next}`);
    const fallback = !known || !known(stem(w));
    const compound = /[-+/]/.test(w) && !NUMBER.test(w);
    // A compound the index does not know is searched by its parts only.
    if (!(known && fallback && compound)) push(w);
    bareNumber(w);
    if (fallback) prefixOf(w);
    if (fallback && compound) {
      for (const part of w.split(/[-+/]+/)) {
        if (!part || part === w) continue;
        push(part);
        bareNumber(part);
        prefixOf(part);
      }
    }
    if (out.length) groups.push([...new Set(out)]);
  });
  return groups;
}

export interface Bm25Doc {
  terms: string[];
}

/** Okapi BM25 over an in-memory corpus; returns one score per document. */
export function bm25Scores(query: string[], docs: Bm25Doc[], k1 = 1.2, b = 0.75): number[] {
  const n = docs.length;
  if (n === 0) return [];
  const avgLen = docs.reduce((s, d) => s + d.terms.length, 0) / n || 1;
  const df = documentFrequencies(docs);
  const q = [...new Set(query)];
  return docs.map((doc) => {
    const tf = new Map<string, number>();
    for (const t of doc.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (!f) continue;
      const idf = inverseDocumentFrequency(n, df.get(t) ?? 0);
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * doc.terms.length) / avgLen));
    }
    return score;
  });
}

export function documentFrequencies(docs: Bm25Doc[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/** BM25's IDF; a term no document contains gets the largest weight, which is what a gap test needs. */
export function inverseDocumentFrequency(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

// Words people use to phrase a question that rarely name what they ask about ("how big is the
// battery", "most current it will pull"): a passage that lacks them can still answer.
export const GENERIC_TERMS: ReadonlySet<string> = new Set(
  (
    'big small large little most least many much long short high higher low lower fast slow good better best bad ' +
    'right wrong new old first last next kind type sort way thing stuff work run pull push present alone actually ' +
    'really exactly roughly approximately typical typically normal normally usually correct proper properly possible ' +
    'able allowed supposed keep come go take happen reason problem issue something anything everything nothing ' +
    'someone sure okay ok help mean called amount able already still even again instead often frequently'
  )
    .split(/\s+/)
    .map(stem),
);

export interface Coverage {
  /** 0..1: weighted share of the question's content terms found in the best passages. */
  coverage: number;
  /** Indices of the passages that were used (best BM25 first). */
  top: number[];
  /** Question terms no passage contains (stems). */
  missing: string[];
}

/**
 * How well the best passages (top `topK` by BM25) cover the question: the weighted share of the
 * question's content terms they contain. A term's weight grows with its rarity among the passages
 * (a term none of them contain, like "warranty", weighs most; one every passage shares weighs
 * half) and is small for generic question words. Used to decline instead of guessing.
 */
export function passageCoverage(question: string, passages: string[], topK = 3): Coverage {
  const qTerms = contentTerms(question);
  if (qTerms.length === 0 || passages.length === 0) return { coverage: 0, top: [], missing: qTerms };
  const docs = passages.map((p) => ({ terms: terms(p) }));
  const scores = bm25Scores(qTerms, docs);
  const top = scores
    .map((score, i) => ({ score, i }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK)
    .map((x) => x.i);
  const union = new Set(top.flatMap((i) => docs[i].terms));
  const df = documentFrequencies(docs);
  const maxIdf = inverseDocumentFrequency(docs.length, 0);
  const weight = (t: string) =>
    (GENERIC_TERMS.has(t) ? 0.3 : 1) * (0.5 + (0.5 * inverseDocumentFrequency(docs.length, df.get(t) ?? 0)) / maxIdf);
  const total = qTerms.reduce((s, t) => s + weight(t), 0);
  const covered = qTerms.reduce((s, t) => s + (union.has(t) ? weight(t) : 0), 0);
  return { coverage: covered / total, top, missing: qTerms.filter((t) => !df.has(t)) };
}

/** Rough token count (≈4 characters per token), good enough for budget decisions. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** Numbers in text ("3.3", "400", "0x1f"); an answer number absent from its source is a red flag. */
export function numbersIn(text: string): string[] {
  // "2.50" and "2.5" are the same value; hex stays as written.
  return (text.toLowerCase().match(/\b0x[0-9a-f]+\b|\d+(?:\.\d+)?/g) ?? []).map((n) =>
    n.startsWith('0x') || !n.includes('.') ? n : n.replace(/0+$/, '').replace(/\.$/, ''),
  );
}
