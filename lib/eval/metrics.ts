/**
 * Scoring (../shared/eval/README.md), pure functions so they are tested on fixtures:
 * - retrieval at the (manual, page) level: chunk hits → ranked unique pages → Recall@k, MRR;
 * - answers: keyword hit (all keywords, case- and whitespace-insensitive, U+2212 → '-');
 * - unanswerable questions: a refusal that makes up no value;
 * - stated answers against a reference answer: ROUGE-L over lower-cased word tokens;
 * - latency percentiles.
 */
import { isDecline } from '@/lib/answer/word';

/** A retrieved item: a page of a manual. */
export interface PageRef {
  manualId: string;
  page: number;
}

const pageKey = (p: PageRef) => `${p.manualId}\u0000${p.page}`;

/**
 * Hits in rank order (chunks or pages, any extra fields) → unique pages in order of first
 * appearance: a page's rank is the rank of its best chunk.
 */
export function rankPages(hits: Iterable<PageRef>, limit = Infinity): PageRef[] {
  const seen = new Set<string>();
  const out: PageRef[] = [];
  for (const h of hits) {
    if (out.length >= limit) break;
    const key = pageKey(h);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ manualId: h.manualId, page: h.page });
  }
  return out;
}

/** 1-based rank of the first retrieved page that is an expected page of the right manual; null if none. */
export function firstRelevantRank(ranked: readonly PageRef[], manualId: string | null | undefined, expectedPages: readonly number[]): number | null {
  if (!manualId || expectedPages.length === 0) return null;
  const expected = new Set(expectedPages);
  const i = ranked.findIndex((p) => p.manualId === manualId && expected.has(p.page));
  return i < 0 ? null : i + 1;
}

/**
 * Wrong device at rank 1: the first retrieved page is from another manual than the question's.
 * Nothing retrieved is no wrong device; an answerable question of a manual not in the
 * library (manualId null) has every page from another manual.
 */
export function wrongDeviceAt1(ranked: readonly PageRef[], manualId: string | null | undefined): boolean {
  return ranked.length > 0 && ranked[0].manualId !== manualId;
}

export const hitAtK = (rank: number | null, k: number): boolean => rank !== null && rank <= k;

export const reciprocalRank = (rank: number | null): number => (rank === null ? 0 : 1 / rank);

/** Mean of numbers (or booleans as 0/1); null for an empty list ("does not apply"). */
export function mean(values: ReadonlyArray<number | boolean>): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += typeof v === 'boolean' ? (v ? 1 : 0) : v;
  return s / values.length;
}

// ---------------------------------------------------------------------------------------------
// Answers

/** The README's matching form: no whitespace at all, lower case, U+2212 minus as '-'. */
export function normalizeForMatch(s: string): string {
  return s.replace(/\u2212/g, '-').replace(/\s+/gu, '').toLowerCase();
}

/** True when the answer contains every keyword (an empty keyword list never counts as a hit). */
export function keywordHit(answer: string, keywords: readonly string[]): boolean {
  if (keywords.length === 0) return false;
  const a = normalizeForMatch(answer);
  return keywords.every((k) => a.includes(normalizeForMatch(k)));
}

/** Which keywords are missing from the answer (for the misses report). */
export function missingKeywords(answer: string, keywords: readonly string[]): string[] {
  const a = normalizeForMatch(answer);
  return keywords.filter((k) => !a.includes(normalizeForMatch(k)));
}

/**
 * An answer that says the manuals do not contain the information: the agent's own decline
 * (isDecline, lib/answer/word.ts) and the usual LLM phrasings, anywhere in the reply.
 */
const REFUSAL_PATTERNS: RegExp[] = [
  /\b(?:the |these |this |your )?(?:manuals?|documents?|documentation|sources?|passages?|guides?|provided (?:manuals?|documents?|sources?))\s+(?:do|does|did)\s*(?:not|n['’]t)\s+(?:say|mention|cover|contain|specify|include|list|state|give|provide|describe|document)/i,
  /\bnot\s+(?:found|mentioned|covered|specified|listed|stated|given|documented|included|described)\s+(?:in|by)\s+(?:the\s+|any\s+(?:of\s+the\s+)?)?(?:manuals?|documents?|documentation|sources?|passages?)/i,
  /\b(?:no|none of the)\s+(?:retrieved\s+)?(?:manuals?|documents?|sources?|passages?)\s+(?:say|says|mention|mentions|cover|covers|contain|contains|specif(?:y|ies)|answer|answers)/i,
  /\b(?:i\s+)?(?:could\s*not|couldn['’]t|can\s*not|cannot|can['’]t|was\s+unable\s+to|am\s+unable\s+to)\s+find\b/i,
  /\bno\s+(?:information|mention|data|details?|specification)\s+(?:about|on|of|for|regarding)\b/i,
];

export function saysNotInManuals(text: string): boolean {
  return isDecline(text) || REFUSAL_PATTERNS.some((re) => re.test(text));
}

/** Citation markers like [2] or [1, 3] are the reply's links, not its words or values. */
export function stripCitations(text: string): string {
  return text.replace(/\[\d+(?:\s*[,;]\s*\d+)*\]/g, ' ');
}

/** Digit runs as values: "3.5A" → "3.5", "159-0021-00" → "159", "0021", "00" (decimal comma → point). */
function numbersIn(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(',', '.').replace(/^0+(?=\d)/, ''));
}

/**
 * Values in the answer that the question did not contain: a refusal that still states a number
 * (a rating, a part number) is making one up. Citation markers like [2] or [1, 3] are ignored.
 */
export function madeUpValues(answer: string, question: string): string[] {
  const stripped = stripCitations(answer);
  const allowed = new Set(numbersIn(question));
  return [...new Set(numbersIn(stripped).filter((n) => !allowed.has(n)))];
}

export interface RefusalVerdict {
  refused: boolean;
  /** The answer declined (flag or wording). */
  declined: boolean;
  madeUp: string[];
}

/** README: a hit if the answer says the manuals do not contain it and does not make up a value. */
export function judgeRefusal(answer: { text: string; declined?: boolean }, question: string): RefusalVerdict {
  const declined = answer.declined === true || saysNotInManuals(answer.text);
  const madeUp = madeUpValues(answer.text, question);
  return { refused: declined && madeUp.length === 0, declined, madeUp };
}

// ---------------------------------------------------------------------------------------------
// ROUGE-L

/**
 * Lower-cased word tokens: runs of letters and digits, joined across an inner '.', '-' or
 * apostrophe so a value ("3.3", "-13" after its sign) or a part code ("hx-200") stays one word.
 */
export function wordTokens(text: string): string[] {
  return text.replace(/\u2212/g, '-').toLowerCase().match(/[\p{L}\p{N}]+(?:[.'’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Length of the longest common subsequence of two token lists (two rows of the usual table). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * ROUGE-L of a candidate against a reference: LCS over the candidate's tokens (precision), over
 * the reference's (recall), and their harmonic mean. An empty side scores 0.
 */
export function rougeL(candidate: string, reference: string): RougeScore {
  const c = wordTokens(candidate);
  const r = wordTokens(reference);
  const lcs = lcsLength(c, r);
  if (lcs === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = lcs / c.length;
  const recall = lcs / r.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

// ---------------------------------------------------------------------------------------------
// Latency

/** Linear-interpolated percentile (p in [0, 100]) of the values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const pos = (Math.min(100, Math.max(0, p)) / 100) * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function latencySummary(values: readonly number[]): { p50: number | null; p95: number | null } {
  const r = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
  return { p50: r(percentile(values, 50)), p95: r(percentile(values, 95)) };
}
