/**
 * Turning the chosen units into the answer's words: verbatim quotes, each cited with its [n].
 * Context is added where a unit is useless alone: a list after its intro ("…as follows:"), the
 * steps of a procedure, the value sentences after a topic sentence, the sentence a "This …"
 * refers to. The quotes fit a length budget and read in the passages' order.
 */
import { matchTerms } from '@/lib/text/analyze';
import { valueKinds } from '@/lib/text/quantities';
import { splitSentences } from '@/lib/text/sentences';
import type { Reading, Selection } from './select';
import { isSentenceLike, quotable, type Unit } from './units';

const MAX_ANSWER_CHARS = 900;
/** A unit longer than this is quoted by its sentences that answer. */
const MAX_UNIT_CHARS = 300;
/** Words that make a sentence lean on the one before it. */
const ANAPHORIC = /^(now|then|this|these|that|those|it|they|here|so|thus|therefore|otherwise|in this case|in that case)\b/i;

export interface Quotes {
  /** The cited sentences, in reading order. */
  parts: string[];
  /** The passages quoted, in the order the answer chose them. */
  refs: number[];
}

/** The chosen units with their context, within the length budget, then in reading order. */
export function quoteAnswer(r: Reading, { chosen, rescued }: Selection): Quotes {
  const quoteOf = quoterFor(r);
  const quotedLength = (u: Unit) => quoteOf(u).reduce((n, p) => n + p.length + 6, 0);
  const used = new Set<Unit>();
  let chars = 0;
  // A unit rescued for an asked quantity is quoted right after the first: it is why the answer
  // counts as stating that quantity, so the length budget must not drop it.
  const readable = readableFor(r.question);
  const byPriority = [chosen[0], ...rescued, ...chosen.slice(1).filter((u) => !rescued.includes(u))];
  byPriority.forEach((u, i) => {
    if (i > 0 && chars + quotedLength(u) > MAX_ANSWER_CHARS) return;
    for (const c of withContext(u, r.passageOf.get(u.ref)!.units, r.procedural, i === 0, readable)) {
      if (used.has(c) || (c !== u && chars + quotedLength(c) > MAX_ANSWER_CHARS)) continue;
      used.add(c);
      chars += quotedLength(c);
    }
  });
  // Reading order: passage by passage (in the order the answer chose them), and in each by position.
  const passageOrder = [...new Set(chosen.map((u) => u.ref))];
  const ordered = [...used].sort((a, b) => passageOrder.indexOf(a.ref) - passageOrder.indexOf(b.ref) || a.position - b.position);
  // A list intro ("… as follows:") whose list is not quoted ends as a sentence, not on a colon.
  const dangling = (u: Unit, i: number) => u.isIntro && !(ordered[i + 1]?.ref === u.ref && ordered[i + 1].position === u.position + 1);
  const parts = ordered.flatMap((u, i) => quoteOf(u).map((piece) => cite(dangling(u, i) ? piece.replace(/:\s*$/, '') : piece, u.ref)));
  return { parts, refs: passageOrder };
}

/**
 * A unit's quote. A long unit (a list item that runs on for a paragraph) is quoted by its
 * sentences that say something the question asks: its words (not the device name) or a value of
 * the asked kind. Each run of kept sentences is cited on its own, so every value sits next to its
 * source.
 */
function quoterFor({ qTerms, isTopic, askedQuantities }: Reading): (u: Unit) => string[] {
  const quote = new Map<Unit, string[]>();
  return (u) => {
    if (quote.has(u)) return quote.get(u)!;
    let pieces = [u.text];
    const sentences = u.text.length > MAX_UNIT_CHARS ? splitSentences(u.text) : [];
    if (sentences.length > 1) {
      const says = (s: string) => {
        const ts = new Set(matchTerms(s));
        return qTerms.some((t) => ts.has(t) && !isTopic(t, u.manualId)) || [...askedQuantities].some((k) => valueKinds(s).has(k));
      };
      const keep = sentences.map((s, i) => (says(s) ? i : -1)).filter((i) => i >= 0);
      if (keep.length && keep.length < sentences.length) {
        pieces = [];
        keep.forEach((i, j) => {
          if (j > 0 && keep[j - 1] === i - 1) pieces[pieces.length - 1] += ` ${sentences[i]}`;
          else pieces.push(j > 0 ? `… ${sentences[i]}` : sentences[i]);
        });
      }
    }
    quote.set(u, pieces);
    return pieces;
  };
}

/**
 * Quotable as context: a row, a list item, a sentence or a line with a value the question does not
 * already hold ("AC-PT-400 (4-20 mA)"); not a figure label or a title line ("ACME HX-200",
 * "V1.2 board" of a question about the HX-200 V1.2, "Abstract").
 */
function readableFor(question: string): (u: Unit | undefined) => u is Unit {
  const asked = new Set(valueTokens(question));
  return (u): u is Unit => quotable(u) && (u.kind === 'row' || u.kind === 'item' || isSentenceLike(u.text) || valueTokens(u.text).some((t) => !asked.has(t)));
}
/** Tokens with a digit, lower-cased ("V1.2", "0x1F"). */
const valueTokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}.]+/u)
    .map((w) => w.replace(/^\.+|\.+$/g, ''))
    .filter((w) => /\d/.test(w));

/** A unit with what it needs to make sense, in reading order. */
function withContext(u: Unit, siblings: Unit[], procedural: boolean, isFirst: boolean, readable: (u: Unit | undefined) => u is Unit): Unit[] {
  const at = u.position;
  const before: Unit[] = [];
  const after: Unit[] = [];
  const prev = siblings[at - 1];
  if (readable(prev) && ANAPHORIC.test(u.text)) before.push(prev);
  // An FAQ answer opens with its most direct sentence ("It is because … (P-07)").
  const opening = u.answerStart !== undefined ? siblings[u.answerStart] : undefined;
  if (opening && opening !== u && opening !== prev && readable(opening) && opening.position < at) before.unshift(opening);
  const itemsFrom = (start: number, max: number) => {
    const items: Unit[] = [];
    for (let i = start; i < siblings.length && items.length < max && siblings[i].kind === 'item'; i++) items.push(siblings[i]);
    return items;
  };
  if (u.isIntro) {
    // "… as follows:" — the list it introduces (or, without one, the next two units).
    const items = itemsFrom(at + 1, 8);
    after.push(...(items.length ? items : siblings.slice(at + 1, at + 3).filter(readable)));
  } else if (procedural && u.kind === 'item') {
    // A step of a procedure: the whole run of steps, from its intro.
    let start = at;
    while (start > 0 && siblings[start - 1].kind === 'item') start--;
    if (start > 0 && siblings[start - 1].isIntro) before.push(siblings[start - 1]);
    before.push(...siblings.slice(start, at));
    after.push(...itemsFrom(at + 1, 9 - (at - start)));
  } else if (procedural) {
    // "How do I …": the steps that follow the explanation, if they follow closely.
    const start = siblings.findIndex((s, i) => i > at && i <= at + 4 && s.kind === 'item');
    if (start > 0) {
      if (siblings[start - 1].isIntro && start - 1 > at) after.push(siblings[start - 1]);
      after.push(...itemsFrom(start, 8));
    }
  } else if (isFirst && !u.hasValue) {
    // A topic sentence without the value: the values usually follow in the next units.
    for (let i = at + 1; i <= at + 2 && readable(siblings[i]) && siblings[i].hasValue; i++) after.push(siblings[i]);
  }
  return [...before, u, ...after];
}

/** "The battery is 400 mAh." + 3 → "The battery is 400 mAh [3]." */
export function cite(sentence: string, ref: number): string {
  const trimmed = sentence.trim();
  const m = trimmed.match(/^(.*?)([.!?:;]*)$/s)!;
  // A list intro keeps its colon; anything else ends like a sentence.
  // One mark: "0x00 .." cut from a range must not read "0x00 [1].."
  const last = m[2].at(-1);
  const end = last === ':' ? ':' : last === '!' || last === '?' ? last : '.';
  return `${m[1].trimEnd()} [${ref}]${end}`;
}
