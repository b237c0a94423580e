/**
 * Choosing the evidence: the units of the retrieved passages that answer the question.
 *
 * - Scoring: the question's terms (termGroups: "3.3 V" = "3.3V", part numbers, "ten" = 10)
 *   weighted by their rarity among the units (BM25's idf and length normalisation, lib/text/bm25);
 *   the device or manual name (in the manual's title, or in most passages) weighs little, since it
 *   picks nothing. Units with values (numbers, codes), steps for "how do I" questions, and units
 *   from the better-ranked pages are preferred; a bare heading, a label or an OCR fragment never
 *   answers.
 * - Selection: greedy coverage, so a two-part question ("which chip, and how much current?") gets
 *   a unit for each part, from the top two pages of one manual (multi-hop answers). A question
 *   that asks for a quantity gets a unit stating one when the answer's pages have it.
 */
import type { RefHit } from '@/lib/answer/hits';
import { askedSpan } from '@/lib/text/asked';
import { matchTerms, termGroups } from '@/lib/text/analyze';
import { Bm25Index, idf } from '@/lib/text/bm25';
import { askedKinds, valueKinds } from '@/lib/text/quantities';
import { isSentenceLike, isStep, passageUnits, type Unit } from './units';

const MAX_UNITS = 3;
/** For "how do I …", matching steps answer first if they score this share of the best unit. */
const STEP_SHARE = 0.4;
/** An asked quantity is looked for on this many of the best pages (0-based rank). */
const RESCUE_PAGES = 4;
/** Score shares of a term found only in a unit's context: its table header or FAQ question, its heading. */
const CONTEXT_SHARE = 0.5;
const HEADING_SHARE = 0.3;
/** Score share of a term that names the manual's device. */
const TOPIC_SCORE_SHARE = 0.5;
/** BM25 over the units: saturation and (mild) length normalisation; a unit is a sentence or a row. */
const UNIT_BM25 = { k1: 1.2, b: 0.3 };

const PROCEDURAL = /\b(how (do|can|should|would|must) (i|we|you)|how to|what steps|which steps|procedure|set ?up|step by step)\b/i;
const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

interface Passage {
  hit: RefHit;
  units: Unit[];
  terms: Set<string>;
  headingTerms: Set<string>;
  headingSegments: Set<string>;
}

/** The question read against the retrieved passages: what every later step looks things up in. */
export interface Reading {
  question: string;
  passages: Passage[];
  /** Every passage's units, in hit order. */
  units: Unit[];
  passageOf: Map<number, Passage>;
  /** The question's terms by word ("3.3 V" = "3.3V"), and all of them. */
  groups: string[][];
  qTerms: string[];
  /** Some passage has the term. */
  known: (t: string) => boolean;
  /** Manual → terms that name its device: its title's and the searches' topic terms. */
  topics: Map<string, Set<string>>;
  isTopic: (t: string, manualId: string) => boolean;
  /** The manual whose device the question names, if one does. */
  named: string | undefined;
  askedPhrase: string | undefined;
  /** Kinds of quantity the question asks for ("voltage"). */
  askedQuantities: Set<string>;
  /** "How do I …": answered with steps. */
  procedural: boolean;
  /** The manuals an answer may quote (the turn's device); undefined = any. */
  quotable?: readonly string[];
}

/** The question and the passages, or undefined when there is nothing to answer from. */
export function readQuestion(question: string, hits: RefHit[], topicTerms?: Map<string, Set<string>>): Reading | undefined {
  const withText = hits.filter((h) => h.text && h.text.trim());
  const pageOrder: string[] = [];
  for (const h of withText) {
    const key = `${h.manualId}#${h.page}`;
    if (!pageOrder.includes(key)) pageOrder.push(key);
  }
  const passages: Passage[] = withText.map((hit, hitRank) => ({
    hit,
    units: passageUnits(hit, hitRank, pageOrder.indexOf(`${hit.manualId}#${hit.page}`)),
    terms: new Set(matchTerms(`${hit.heading ?? ''}\n${hit.text ?? ''}`)),
    headingTerms: new Set(matchTerms(hit.heading ?? '')),
    headingSegments: new Set((hit.heading ?? '').split('>').map(normalise).filter(Boolean)),
  }));
  const units = passages.flatMap((p) => p.units);
  const known = (t: string) => passages.some((p) => p.terms.has(t));
  const groups = termGroups(question, known);
  const qTerms = [...new Set(groups.flat())];
  if (passages.length === 0 || qTerms.length === 0) return undefined;

  // The topic of a manual: its title's terms and the question terms on most of its pages.
  const topics = new Map<string, Set<string>>();
  const titles = new Map<string, Set<string>>();
  for (const p of passages) {
    if (topics.has(p.hit.manualId)) continue;
    titles.set(p.hit.manualId, new Set(matchTerms(p.hit.manualTitle ?? '')));
    topics.set(p.hit.manualId, new Set([...titles.get(p.hit.manualId)!, ...(topicTerms?.get(p.hit.manualId) ?? [])]));
  }
  // The words that name a manual's device: its title's words that the library finds mostly in
  // that manual (topicTerms) or that no other retrieved manual's passages use. A common word in a
  // title ("board" in "… smart protection board … manual") names nothing: a question about a
  // power supply board is not about that manual.
  const usedElsewhere = (t: string, id: string) => passages.some((p) => p.hit.manualId !== id && p.terms.has(t));
  const nameTerms = new Map([...titles].map(([id, ts]) => [id, new Set([...ts].filter((t) => topicTerms?.get(id)?.has(t) || !usedElsewhere(t, id)))]));
  const askedPhrase = askedSpan(question);
  return {
    question,
    passages,
    units,
    passageOf: new Map(passages.map((p) => [p.hit.ref, p])),
    groups,
    qTerms,
    known,
    topics,
    isTopic: (t, manualId) => topics.get(manualId)!.has(t),
    named: namedManual(nameTerms, qTerms),
    askedPhrase,
    askedQuantities: askedKinds(question, askedPhrase),
    procedural: PROCEDURAL.test(question),
  };
}

/** A designation written as one word ("E02", "CH2", "HX-200"): a line labelled so is about that one thing. */
const DESIGNATION_WORD = /\b[A-Z]{1,4}-?\d{1,4}[A-Z]?\b/gi;
const designation = (word: string) => word.toUpperCase().replace(/[^A-Z0-9]/g, '');
const designationsIn = (text: string) => new Set([...text.matchAll(DESIGNATION_WORD)].map((m) => designation(m[0])));

/** The designations the question asks about, other than the name of `manualId`'s device ("E05" of "What does E05 mean on the HX-200?"). */
export function askedDesignations(r: Reading, manualId: string): Set<string> {
  const asked = [...r.question.matchAll(DESIGNATION_WORD)].filter((m) => !matchTerms(m[0]).some((t) => r.isTopic(t, manualId)));
  return new Set(asked.map((m) => designation(m[0])));
}

/**
 * A label (a row's first cell, a "label: value" line's key) naming designations of an asked one's
 * series, none of them asked, is a neighbour's: "E02" when "E05" is asked, "CH1" for "CH2". One of
 * another series may be the answer itself ("J3" for "which connector does B1 plug into?").
 */
export function namesOtherDesignation(text: string, asked: ReadonlySet<string>): boolean {
  if (!asked.size) return false;
  const series = new Set([...asked].map(seriesOf));
  const named = [...designationsIn(text)];
  return named.some((d) => series.has(seriesOf(d))) && !named.some((d) => asked.has(d));
}
const seriesOf = (d: string) => d.replace(/\d.*$/, '');

/**
 * The manual whose device the question names: the one whose naming terms the question shares
 * most, each term weighted by how few manuals it names (BM25's idf over the manuals at hand,
 * lib/text/bm25). Undefined when none or a tie.
 */
function namedManual(names: Map<string, Set<string>>, qTerms: string[]): string | undefined {
  const m = names.size;
  const df = (t: string) => [...names.values()].filter((s) => s.has(t)).length;
  const scores = [...names].map(([id, ts]) => ({ id, score: qTerms.filter((t) => ts.has(t)).reduce((a, t) => a + idf(m, df(t)), 0) }));
  scores.sort((a, b) => b.score - a.score);
  return scores[0]?.score > 0 && (scores.length === 1 || scores[0].score > scores[1].score) ? scores[0].id : undefined;
}

/** How well each unit answers: which units may answer at all, and their scores. */
interface Scoring {
  /** Not a heading, label or fragment: a unit that reads as an answer. */
  answerLike: (u: Unit) => boolean;
  /** Answer-like and sharing a weighed question term. */
  eligible: (u: Unit) => boolean;
  /** The unit's score, given the terms the answer covers already. */
  score: (u: Unit, covered: Set<string>) => number;
}

function scoring(r: Reading): Scoring {
  const { question, units, qTerms, groups, passageOf, isTopic, procedural } = r;
  const anyTopic = (t: string) => [...r.topics.values()].some((s) => s.has(t));
  // Term weights: rare among the units; the topic weighs little.
  // Words the technician quotes ('Normal', "Calculate") are labels to match exactly: they weigh double.
  const quoted = new Set([...question.matchAll(/['"‘“]([^'"’”]{2,40})['"’”]/g)].flatMap((m) => matchTerms(m[1])));
  const bm25 = new Bm25Index(
    units.map((u) => u.termList),
    UNIT_BM25,
  );
  const weight = new Map<string, number>();
  for (const t of qTerms) weight.set(t, bm25.idf(t) * (anyTopic(t) ? TOPIC_SCORE_SHARE : 1) * (quoted.has(t) ? 2 : 1));
  const lengthNorm = new Map(units.map((u, i) => [u, bm25.lengthNorm(i)]));

  // A question whose words all name the manual's subject ("How much oil does the GX-4 gearbox
  // take?" of a note titled "Gearbox GX-4 oil change") is matched by those words.
  const onlyTopic = (manualId: string) => qTerms.every((t) => isTopic(t, manualId));
  const answerLike = (u: Unit) => {
    if (u.kind === 'header' || u.kind === 'question') return false;
    const p = passageOf.get(u.ref)!;
    if (p.headingSegments.has(normalise(u.text))) return false;
    // A label, a title line or an OCR fragment ("3 x1 Vin", "Fuse F1", "ACME HX-200 V1.2") is
    // not an answer; a table row can be short.
    return u.kind === 'row' || isSentenceLike(u.text);
  };
  const asked = new Map<string, Set<string>>();
  const askedIn = (manualId: string) => asked.get(manualId) ?? asked.set(manualId, askedDesignations(r, manualId)).get(manualId)!;
  const eligible = (u: Unit) => {
    if (!answerLike(u) || (r.quotable && !r.quotable.includes(u.manualId))) return false;
    if (namesOtherDesignation(u.labelText, askedIn(u.manualId))) return false;
    return qTerms.some((t) => (u.terms.has(t) || u.context.has(t)) && (!isTopic(t, u.manualId) || onlyTopic(u.manualId)) && (weight.get(t) ?? 0) > 0);
  };
  // Values, steps for "how do I" and better-ranked pages are preferred; so is a line whose label
  // is the phrase the question asks for ("Supply voltage | 24 V DC" for "what supply voltage"):
  // it states that very thing, where other lines only mention it. The share is the labels' Dice.
  const askedTerms = new Set(matchTerms(r.askedPhrase ?? ''));
  const labelShare = (u: Unit) => {
    if (!askedTerms.size || !u.label.size || !u.hasValue) return 0;
    const shared = [...askedTerms].filter((t) => u.label.has(t)).length;
    return (2 * shared) / (askedTerms.size + u.label.size);
  };
  const prior = (u: Unit) =>
    ((u.hasValue ? 1.15 : 1) * (procedural && (u.kind === 'item' || u.isIntro) ? 1.3 : 1) * (1 + labelShare(u))) / (1 + 0.15 * u.pageRank);
  const score = (u: Unit, covered: Set<string>) => {
    const heading = passageOf.get(u.ref)!.headingTerms;
    let s = 0;
    for (const t of qTerms) {
      const w = weight.get(t)!;
      if (u.terms.has(t)) s += covered.has(t) ? 0.25 * w : w;
      else if (covered.has(t)) continue;
      else if (u.context.has(t)) s += CONTEXT_SHARE * w;
      else if (heading.has(t)) s += HEADING_SHARE * w;
    }
    // Coordination: a unit that meets more of the question's words beats one rare word.
    const met = groups.filter((g) => g.some((t) => u.terms.has(t) || u.context.has(t))).length;
    return s * Math.sqrt(met / (groups.length || 1)) * lengthNorm.get(u)! * prior(u);
  };
  return { answerLike, eligible, score };
}

/** The units an answer quotes, before the context that makes them readable (./quote.ts). */
export interface Selection {
  /** Best first; the units rescued for an asked quantity are among them. */
  chosen: Unit[];
  /** Units added because they state an asked quantity. */
  rescued: Unit[];
  /** Every term of the chosen units. */
  covered: Set<string>;
  /** A quantity the question asks for that no chosen or rescuable unit states. */
  quantityMissing: boolean;
}

/** The evidence for an answer, or undefined when no unit can answer. */
export function selectUnits(r: Reading): Selection | undefined {
  const scores = scoring(r);
  const covered = new Set<string>();
  const chosen = chooseUnits(r, scores, covered);
  if (chosen.length === 0) return undefined;
  const { rescued, quantityMissing } = rescueQuantities(r, scores, chosen, covered);
  return { chosen, rescued, covered, quantityMissing };
}

/** Greedy coverage: the best unit, then units that answer what it leaves open (adds their terms to `covered`). */
function chooseUnits(r: Reading, { eligible, score }: Scoring, covered: Set<string>): Unit[] {
  const { qTerms, isTopic, procedural } = r;
  const candidates = r.units.filter(eligible);
  const chosen: Unit[] = [];
  // The manual of the device the question names answers, when any of its passages can: another
  // device's passage that shares more words is about the wrong device.
  const ofNamed = candidates.filter((u) => u.manualId === r.named);
  const scoped = ofNamed.length ? ofNamed : candidates;
  while (chosen.length < MAX_UNITS) {
    let best: Unit | undefined;
    let bestScore = 0;
    // The vision model's reading of the figure, when there is one, answers first: it was asked
    // this very question about the page the search found.
    const pool = chosen.length === 0 && scoped.some((u) => u.vlm) ? scoped.filter((u) => u.vlm) : scoped;
    for (const u of pool) {
      if (chosen.includes(u)) continue;
      if (chosen.length && u.manualId !== chosen[0].manualId) continue;
      if (chosen.some((c) => nearDuplicate(c.terms, u.terms))) continue;
      // A further unit must itself say something the chosen ones do not: a new content word.
      if (chosen.length && !qTerms.some((t) => u.terms.has(t) && !covered.has(t) && !isTopic(t, u.manualId))) continue;
      const s = score(u, covered);
      const earlier = best && (u.hitRank < best.hitRank || (u.hitRank === best.hitRank && u.position < best.position));
      if (s > bestScore || (s === bestScore && earlier)) {
        best = u;
        bestScore = s;
      }
    }
    if (!best || bestScore <= 0) break;
    if (chosen.length === 0 && procedural && !isStep(best)) {
      // "How do I …" is answered with the steps when the pages have matching ones; the
      // explanation that outscored them can follow as the next unit.
      const steps = scoped.filter(isStep).map((u) => ({ u, s: score(u, covered) }));
      const step = steps.sort((a, b) => b.s - a.s)[0];
      if (step && step.s >= bestScore * STEP_SHARE) {
        best = step.u;
        bestScore = step.s;
      }
    }
    chosen.push(best);
    for (const t of best.terms) covered.add(t);
  }
  return chosen;
}

/**
 * A question that asks for a quantity ("what torque", "how much current") needs a unit that
 * states one: the best such unit of the answer's pages joins `chosen`, or the quantity is missing.
 */
function rescueQuantities(r: Reading, { answerLike, eligible, score }: Scoring, chosen: Unit[], covered: Set<string>) {
  const manualId = chosen[0].manualId;
  let quantityMissing = false;
  const rescued: Unit[] = [];
  const siblingsOf = (u: Unit) => r.passageOf.get(u.ref)!.units;
  for (const kind of r.askedQuantities) {
    const states = (u: Unit) => valueKinds(u.text).has(kind);
    // A chosen unit states it already, or (the first one, without a value) the value units after it.
    const follows = (u: Unit) =>
      u === chosen[0] &&
      !u.hasValue &&
      siblingsOf(u)
        .slice(u.position + 1, u.position + 3)
        .some(states);
    if (chosen.some((u) => states(u) || follows(u))) continue;
    // On the best page any line may state it in other words ("power consumption … 130 mA" for
    // "how much current does it draw"); elsewhere the line must share a word with the question.
    const stated = (u: Unit) => (u.pageRank === 0 ? answerLike(u) : u.pageRank <= RESCUE_PAGES && eligible(u));
    const pool = r.units.filter((u) => u.manualId === manualId && !chosen.includes(u) && states(u) && stated(u));
    const rescue = pool.sort((a, b) => score(b, covered) - score(a, covered))[0];
    if (!rescue) {
      quantityMissing = true;
      continue;
    }
    chosen.push(rescue);
    rescued.push(rescue);
    for (const t of rescue.terms) covered.add(t);
  }
  return { rescued, quantityMissing };
}

function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  const shared = [...a].filter((t) => b.has(t)).length;
  return shared / Math.max(1, Math.min(a.size, b.size)) > 0.8;
}
