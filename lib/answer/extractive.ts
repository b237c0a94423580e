/**
 * Offline answers: the passages' best sentences and table rows, each cited, or a plain decline
 * (./word.ts declineSentence) when they do not cover the question. The steps, each in its module:
 * read the passages into units (./units.ts), select the units that answer (./select.ts), quote
 * them with their context (./quote.ts), decide whether the evidence suffices (./decide.ts) and is
 * about the asked device (./applicability.ts), in fixed wording (./word.ts).
 */
import { ofDevice, type RefHit } from '@/lib/answer/hits';
import { terms } from '@/lib/text/analyze';
import { Bm25Index } from '@/lib/text/bm25';
import { splitSentences } from '@/lib/text/sentences';
import { otherDeviceAsked } from './applicability';
import { evidenceOf, NO_EVIDENCE, type AnswerEvidence } from './decide';
import { answerForm, type AnswerMode, type FormPolicy } from './form';
import { cite, quoteAnswer, type Quotes } from './quote';
import { readQuestion, selectUnits, type Reading, type Selection } from './select';
import { anchorQuotes, readStructure, type PageUnit, type StructuredReading } from './structured';
import { closestPagesSentence, declineSentence, notReadySentence, scannedRegionSentence, uncoveredVariantSentence, unknownDeviceSentence } from './word';
import { stripCitations } from '@/lib/text/sentences';

export interface ExtractiveAnswer {
  text: string;
  /** The cited sentences `text` is made of, in order (streamed one by one). */
  parts: string[];
  refs: number[];
  declined: boolean;
  /** The form of the reply (./form.ts); `declined` is every form but `answer`. */
  mode: AnswerMode;
  coverage: number;
  /** What the decision to answer or decline was based on. */
  evidence: AnswerEvidence;
  /** The structure unit the answer reads, when it reads one (its regions and value boxes). */
  structure?: StructuredReading;
  /** How the question was read, when it could be: the closest pages' regions are chosen by it too. */
  reading?: Reading;
}

export interface ExtractiveOptions {
  /** Manual → terms naming its device (hybrid_search's topic_terms); the title's terms always count. */
  topicTerms?: Map<string, Set<string>>;
  /** When to quote and when to show pages; default: the policy chosen under cross-validation (lib/answer/form.json). */
  formPolicy?: FormPolicy;
  /** Maker + model names the question gives that no manual of the library mentions ("Rigol DP832"): ./applicability.ts. */
  unknownDevices?: readonly string[];
  /** Variants the question names that the manuals do not list, with those they list: ./applicability.ts. */
  uncoveredVariants?: ReadonlyArray<{ asked: string; listed: readonly string[] }>;
  /** Devices the question names whose only manual is still processing: ./applicability.ts. */
  notReady?: ReadonlyArray<{ device: string; percent?: number }>;
  /** The structure units of the best retrieved pages (./structured.ts reads an answer from one). */
  units?: readonly PageUnit[];
  /**
   * The manuals of the device the turn is about when the question itself names none (a pick, the
   * chat's device): the answer quotes only them. Every hit still weighs the question's words, so
   * only what is quoted changes.
   */
  device?: readonly string[];
}

export function extractiveAnswer(question: string, hits: RefHit[], opts: ExtractiveOptions = {}): ExtractiveAnswer {
  const pages = new Set(hits.map((h) => `${h.manualId}\u0000${h.page}`)).size;
  const form = (evidence: AnswerEvidence | null, otherDevice = false) => answerForm({ notCovered: false, evidence, otherDevice, pages }, opts.formPolicy);
  // The asked device's manual is not searchable yet, or does not list the asked variant: any
  // passage found is about another device (or another variant), whatever else the question names.
  if (opts.notReady?.length) return notCovered(notReadySentence(opts.notReady));
  if (opts.uncoveredVariants?.length) return notCovered(uncoveredVariantSentence(opts.uncoveredVariants));
  const read = readQuestion(question, hits, opts.topicTerms);
  const reading = read && opts.device?.length ? { ...read, quotable: opts.device } : read;
  if (!reading) return withheld(question, form(null), NO_EVIDENCE);
  // A device no manual mentions, unless the question also names a manual's device (or one by its
  // title): another device's passages would only mislead.
  if (opts.unknownDevices?.length && !reading.named) return notCovered(unknownDeviceSentence(opts.unknownDevices));
  return { ...readAnswer(question, reading, pages, form, opts), reading };
}

/** The answer from a question that could be read: a unit read whole, the passages' quotes, or why neither is stated. */
function readAnswer(
  question: string,
  reading: Reading,
  pages: number,
  form: (evidence: AnswerEvidence | null, otherDevice?: boolean) => AnswerMode,
  opts: ExtractiveOptions,
): ExtractiveAnswer {
  const selection = selectUnits(reading);
  const quoted = selection && quoteAnswer(reading, selection);
  // The units of the pages the answer may quote (the turn's device, when the reading is so bound).
  const units = ofDevice(opts.units ?? [], reading.quotable);
  const bag = selection && quoted && quotedAnswer(reading, selection, quoted, units);
  // A unit read whole (a cell with its labels, a procedure to its last step) is the answer when it
  // covers the question at least as well as the sentences the bag reader would quote.
  const structure = units.length ? readStructure(reading, units) : undefined;
  const useStructure = !!structure && (!bag || structure.coverage >= bag.evidence.coverage);
  const chosen = useStructure
    ? {
        parts: [structure.text],
        refs: [structure.ref],
        manualId: structure.manualId,
        structure,
        evidence: {
          coverage: structure.coverage,
          quantityMissing: structure.quantityMissing,
          regions: structure.regions,
          structure: structure.kind,
        } satisfies AnswerEvidence,
      }
    : bag;
  if (!chosen) return withheld(question, form(null), NO_EVIDENCE);
  // A unit read from OCR text is a place to look: its crop and what its text seems to say, never a stated value.
  if (useStructure && structure.ocr && pages > 0) return lookHere(structure, chosen.evidence);
  const { parts, refs, evidence } = chosen;
  const mode = form(evidence, otherDeviceAsked(reading, chosen.manualId) !== undefined);
  if (mode !== 'answer') return withheld(question, mode, evidence);
  return {
    text: parts.join(' '),
    parts,
    refs,
    declined: false,
    mode,
    coverage: evidence.coverage,
    evidence,
    ...(chosen.structure ? { structure: chosen.structure } : {}),
  };
}

/**
 * The passage reader's quotes with their page regions; a "how do I" answer whose first quote is a
 * step of a procedure becomes that whole procedure. The evidence (what the form decision reads)
 * stays the quotes'.
 */
function quotedAnswer(reading: Reading, selection: Selection, quoted: Quotes, units: readonly PageUnit[]) {
  const evidence = evidenceOf(reading, selection, quoted.parts);
  const manualId = selection.chosen[0].manualId;
  const { regions, procedure } = units.length ? anchorQuotes(reading, quoted.parts, units) : { regions: [] };
  if (procedure)
    return {
      parts: [procedure.text],
      refs: [procedure.ref],
      manualId,
      structure: procedure,
      evidence: { ...evidence, regions: procedure.regions, structure: 'procedure' },
    };
  return { ...quoted, manualId, structure: undefined, evidence: regions.length ? { ...evidence, regions } : evidence };
}

function lookHere(read: StructuredReading, evidence: AnswerEvidence): ExtractiveAnswer {
  const text = scannedRegionSentence(read.kind, read.page, stripCitations(read.text).replace(/\s+/g, ' ').replace(/\.$/, ''));
  return { text, parts: [text], refs: [], declined: true, mode: 'pages', coverage: evidence.coverage, evidence, structure: read };
}

function notCovered(text: string): ExtractiveAnswer {
  return { text, parts: [text], refs: [], declined: true, mode: 'not_covered', coverage: 0, evidence: NO_EVIDENCE };
}

/** No quote: one sentence saying so, beside the closest pages (or, with none, the plain decline). */
function withheld(question: string, mode: AnswerMode, evidence: AnswerEvidence): ExtractiveAnswer {
  const text = mode === 'pages' ? closestPagesSentence(question) : declineSentence(question);
  // Regions belong to what is shown: a withheld quote's are not.
  return {
    text,
    parts: [text],
    refs: [],
    declined: true,
    mode,
    coverage: evidence.coverage,
    evidence: { coverage: evidence.coverage, quantityMissing: evidence.quantityMissing },
  };
}

interface Candidate {
  ref: number;
  sentence: string;
  position: number;
  hitRank: number;
  terms: string[];
}

/** Offline summary: the sentences most relevant to the question, cited, up to `maxWords` words. */
export function extractiveSummary(question: string, hits: RefHit[], maxWords: number): string {
  const candidates: Candidate[] = [];
  hits.forEach((h, hitRank) => {
    if (!h.text) return;
    splitSentences(h.text).forEach((sentence, position) => {
      const t = terms(sentence);
      if (t.length >= 2) candidates.push({ ref: h.ref, sentence, position, hitRank, terms: t });
    });
  });
  const scores = new Bm25Index(candidates.map((c) => c.terms)).scoreEach(terms(question));
  const order = candidates.map((c, i) => ({ c, score: scores[i] })).sort((a, b) => b.score - a.score || a.c.hitRank - b.c.hitRank);
  const out: string[] = [];
  let used = 0;
  for (const { c } of order) {
    const n = c.sentence.split(/\s+/).length;
    if (used + n > maxWords) {
      if (out.length === 0) out.push(cite(c.sentence.split(/\s+/).slice(0, maxWords).join(' '), c.ref));
      break;
    }
    out.push(cite(c.sentence, c.ref));
    used += n;
  }
  return out.join(' ');
}
