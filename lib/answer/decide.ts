/**
 * The evidence of an offline answer, which ./form.ts reads to decide between quoting it and
 * showing the closest pages. Measured, not taken from the wording of particular questions:
 *   - coverage: the weighted share of the question's words the answer's passages (with their
 *     headings and table headers) contain — the device name counts little, a word no passage has
 *     less than a known one the answer lacks. A question about a property the passages never
 *     state ("bandwidth" of a scope whose manual has none) is so declined instead of being
 *     answered with whatever the manual says about the device;
 *   - quantityMissing: the question asks for a quantity of a kind (volts, hertz, newton-metres)
 *     and no passage on the answer's best pages states a value of that kind, or the quoted answer
 *     does not.
 * The thresholds on them are chosen under cross-validation (./form.ts, ./form.json).
 */
import { valueKinds } from '@/lib/text/quantities';
import type { Reading, Selection } from './select';

/** Coverage weights of question words. */
const TOPIC_WEIGHT = 0.25;
/** A word no retrieved passage contains is often the technician's paraphrase ("tells me"). */
const UNKNOWN_WEIGHT = 0.6;

/** A question word's weight in coverage: the device name little, a word no passage has less than a known one. */
export function groupWeight(group: string[], topic: boolean, known: (t: string) => boolean): number {
  return topic ? TOPIC_WEIGHT : group.some(known) ? 1 : UNKNOWN_WEIGHT;
}

/** A region of a page an answer quotes, as `npm run eval` reports it: PDF points from the top-left. */
export interface EvidenceRegion {
  manualId: string;
  page: number;
  bbox: [number, number, number, number];
  kind: string;
}

export interface AnswerEvidence {
  coverage: number;
  quantityMissing: boolean;
  /** The regions of the page the answer reads (a structure unit's), PDF points from the top-left. */
  regions?: EvidenceRegion[];
  /** What the answer was read from, when a structure unit: a table cell or row, a labelled value, a code, a procedure. */
  structure?: string;
}

export const NO_EVIDENCE: AnswerEvidence = { coverage: 0, quantityMissing: true };

/** The evidence of an answer made of `parts`, quoted from the selected units. */
export function evidenceOf(r: Reading, s: Selection, parts: string[]): AnswerEvidence {
  // An asked quantity the quoted answer does not state (its unit fell to the length budget) is
  // missing from the answer, whatever the passages hold.
  const quotedKinds = valueKinds(parts.join(' '));
  const quantityMissing = s.quantityMissing || [...r.askedQuantities].some((k) => !quotedKinds.has(k));
  return { coverage: coverageOf(r, s), quantityMissing };
}

/**
 * Coverage of the question, word by word, by the chosen units and the headings and context above
 * them. The device name counts little (any passage of the manual covers it), a word no passage
 * has at all less than a known word the answer lacks.
 */
function coverageOf({ groups, known, isTopic, passageOf }: Reading, { chosen, covered }: Selection): number {
  const manualId = chosen[0].manualId;
  const answerTerms = new Set<string>(covered);
  for (const u of chosen) {
    for (const t of passageOf.get(u.ref)!.headingTerms) answerTerms.add(t);
    for (const t of u.context) answerTerms.add(t);
  }
  let total = 0;
  let got = 0;
  for (const g of groups) {
    const topic = g.some((t) => isTopic(t, manualId));
    const w = groupWeight(g, topic, known);
    total += w;
    if (topic || g.some((t) => answerTerms.has(t))) got += w;
  }
  return got / (total || 1);
}
