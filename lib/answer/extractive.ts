/**
 * Offline answers: the passages' best sentences and table rows, each cited, or a plain "The
 * manuals do not say …" when they do not cover the question. The steps, each in its module:
 * read the passages into units (./units.ts), select the units that answer (./select.ts), quote
 * them with their context (./quote.ts), decide whether the evidence suffices (./decide.ts) and is
 * about the asked device (./applicability.ts), in fixed wording (./word.ts).
 */
import type { RefHit } from '@/lib/answer/hits';
import { terms } from '@/lib/text/analyze';
import { Bm25Index } from '@/lib/text/bm25';
import { splitSentences } from '@/lib/text/sentences';
import { namesDevice, otherDeviceAsked } from './applicability';
import { evidenceOf, NO_EVIDENCE, shouldDecline, type AnswerEvidence, type DeclinePolicy } from './decide';
import { cite, quoteAnswer } from './quote';
import { readQuestion, selectUnits, type Reading } from './select';
import { declineSentence, notReadySentence, uncoveredVariantSentence, unknownDeviceSentence, whereLooked } from './word';

export interface ExtractiveAnswer {
  text: string;
  /** The cited sentences `text` is made of, in order (streamed one by one). */
  parts: string[];
  refs: number[];
  declined: boolean;
  coverage: number;
  /** What the decision to answer or decline was based on. */
  evidence: AnswerEvidence;
}

export interface ExtractiveOptions {
  /** Manual → terms naming its device (hybrid_search's topic_terms); the title's terms always count. */
  topicTerms?: Map<string, Set<string>>;
  /** When to decline; default: the policy chosen under cross-validation (lib/answer/decline.json). */
  declinePolicy?: DeclinePolicy;
  /** Maker + model names the question gives that no manual of the library mentions ("Rigol DP832"): ./applicability.ts. */
  unknownDevices?: readonly string[];
  /** Variants the question names that the manuals do not list, with those they list: ./applicability.ts. */
  uncoveredVariants?: ReadonlyArray<{ asked: string; listed: readonly string[] }>;
  /** Devices the question names whose only manual is still processing: ./applicability.ts. */
  notReady?: ReadonlyArray<{ device: string; percent?: number }>;
}

export function extractiveAnswer(question: string, hits: RefHit[], opts: ExtractiveOptions = {}): ExtractiveAnswer {
  // The asked device's manual is not searchable yet, or does not list the asked variant: any
  // passage found is about another device (or another variant), whatever else the question names.
  if (opts.notReady?.length) return notCovered(notReadySentence(opts.notReady));
  if (opts.uncoveredVariants?.length) return notCovered(uncoveredVariantSentence(opts.uncoveredVariants));
  const reading = readQuestion(question, hits, opts.topicTerms);
  if (!reading) return decline(question, NO_EVIDENCE);
  // A device no manual mentions, unless the question also names a manual's device (or one by its
  // title): another device's passages would only mislead.
  if (opts.unknownDevices?.length && !reading.named) return notCovered(unknownDeviceSentence(opts.unknownDevices));
  const selection = selectUnits(reading);
  if (!selection) return decline(question, NO_EVIDENCE);
  const { parts, refs } = quoteAnswer(reading, selection);
  const evidence = evidenceOf(reading, selection, parts);
  const manualId = selection.chosen[0].manualId;
  if (shouldDecline(evidence, opts.declinePolicy)) return decline(question, evidence, whereLooked(question, titleOf(reading, manualId), namesDevice(reading, manualId)));
  const asked = otherDeviceAsked(reading, manualId);
  if (asked) return decline(question, evidence, whereLooked(question, titleOf(reading, asked), true));
  return { text: parts.join(' '), parts, refs, declined: false, coverage: evidence.coverage, evidence };
}

const titleOf = (r: Reading, id: string) => r.passages.find((p) => p.hit.manualId === id)?.hit.manualTitle ?? id;

function notCovered(text: string): ExtractiveAnswer {
  return { text, parts: [text], refs: [], declined: true, coverage: 0, evidence: NO_EVIDENCE };
}

function decline(question: string, evidence: AnswerEvidence, where?: string): ExtractiveAnswer {
  const text = declineSentence(question, where);
  return { text, parts: [text], refs: [], declined: true, coverage: evidence.coverage, evidence };
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
