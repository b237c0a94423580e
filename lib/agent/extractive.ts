/**
 * Offline answers: the best sentences of the retrieved passages, each cited, or a plain "The
 * manuals do not say …" when no passage covers the question. Sentences are ranked with BM25 over
 * the question's content terms; declining is decided by how much of the question (IDF-weighted)
 * the best passage covers, so a question about something the passages never mention is declined.
 */
import type { RefHit } from '@/tools/tool';
import { bm25Scores, contentTerms, passageCoverage, splitSentences, stem, terms, words } from './text';

/** Below this coverage of the question by the best passages (see passageCoverage), decline. */
export const DECLINE_COVERAGE = 0.5;
const MAX_SENTENCES = 3;
const MAX_ANSWER_CHARS = 700;

export interface ExtractiveAnswer {
  text: string;
  /** The cited sentences `text` is made of, in order (streamed one by one). */
  parts: string[];
  refs: number[];
  declined: boolean;
  coverage: number;
}

interface Candidate {
  ref: number;
  sentence: string;
  position: number;
  hitRank: number;
  terms: string[];
}

const passageText = (h: RefHit) => `${h.kind === 'chunk' ? h.heading : (h.heading ?? '')}\n${h.text ?? ''}`;

export function extractiveAnswer(question: string, hits: RefHit[]): ExtractiveAnswer {
  const passages = hits.filter((h) => h.text && h.text.trim());
  const { coverage, missing } = passageCoverage(question, passages.map(passageText));
  if (passages.length === 0 || coverage < DECLINE_COVERAGE) {
    const text = declineText(question, passages.length ? missing : contentTerms(question));
    return { text, parts: [text], refs: [], declined: true, coverage };
  }

  const candidates: Candidate[] = [];
  passages.forEach((h, hitRank) => {
    const headingTerms = h.kind === 'chunk' ? terms(h.heading) : [];
    splitSentences(h.text!).forEach((sentence, position) => {
      const sentenceTerms = terms(sentence);
      if (sentenceTerms.length < 2 || sentence.length > 500) return;
      // The heading gives a sentence its context ("Specifications > Battery": "400 mAh").
      candidates.push({ ref: h.ref, sentence, position, hitRank, terms: [...sentenceTerms, ...headingTerms] });
    });
  });
  const qTerms = terms(question);
  const scores = bm25Scores(qTerms, candidates);
  // Ties go to the passage the search ranked higher, then to the earlier sentence.
  const order = candidates
    .map((c, i) => ({ c, score: scores[i] }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.c.hitRank - b.c.hitRank || a.c.position - b.c.position);
  if (order.length === 0) {
    const text = declineText(question, missing);
    return { text, parts: [text], refs: [], declined: true, coverage };
  }

  const best = order[0].score;
  const chosen: Candidate[] = [];
  let chars = 0;
  for (const { c, score } of order) {
    if (chosen.length >= MAX_SENTENCES || score < best * 0.5) break;
    if (chosen.some((x) => nearDuplicate(x.terms, c.terms))) continue;
    if (chosen.length > 0 && chars + c.sentence.length > MAX_ANSWER_CHARS) continue;
    chosen.push(c);
    chars += c.sentence.length;
  }
  // A sentence that introduces a list ("… as follows:") is useless without the next lines.
  const withContinuations = chosen.flatMap((c) => {
    if (!/:\s*$/.test(c.sentence)) return [c];
    const hit = passages.find((h) => h.ref === c.ref)!;
    const following = splitSentences(hit.text!).slice(c.position + 1, c.position + 4);
    return [c, ...following.map((sentence, i) => ({ ...c, sentence, position: c.position + 1 + i }))];
  });

  const parts = withContinuations.map((c) => cite(c.sentence, c.ref));
  return { text: parts.join(' '), parts, refs: [...new Set(chosen.map((c) => c.ref))], declined: false, coverage };
}

/** "The battery is 400 mAh." + 3 → "The battery is 400 mAh [3]." */
export function cite(sentence: string, ref: number): string {
  const trimmed = sentence.trim();
  const m = trimmed.match(/^(.*?)([.!?:;]*)$/s)!;
  // A list intro keeps its colon; anything else ends like a sentence.
  const end = m[2] ? (m[2].endsWith(':') ? ':' : m[2]) : '.';
  return `${m[1]} [${ref}]${end}`;
}

function nearDuplicate(a: string[], b: string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  const shared = [...sa].filter((t) => sb.has(t)).length;
  return shared / Math.max(1, Math.min(sa.size, sb.size)) > 0.8;
}

/** "The manuals do not say anything about the warranty period." */
export function declineText(question: string, missingStems: string[]): string {
  const missing = new Set(missingStems);
  const surface = [...new Set(words(question).filter((w) => missing.has(stem(w))))];
  if (surface.length === 0) return 'The manuals do not say: no retrieved passage answers this question.';
  return `The manuals do not say anything about ${surface.slice(0, 6).join(' ')}.`;
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
  const scores = bm25Scores(terms(question), candidates);
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
