/**
 * Answer check: every answer sentence against the sources it cites. With an LLM, a judge call
 * decides per sentence; offline (or if the judge fails), lexical support: the sentence's content
 * terms and every number in it must appear in the cited text. Unsupported sentences are flagged,
 * not removed: the UI marks them and the technician decides.
 */
import { generateText, Output, type LanguageModelUsage } from 'ai';
import { z } from 'zod';
import type { LlmClient } from '@/lib/providers/types';
import type { ValueCheck } from './values';
import { isDecline } from './word';
import { terms } from '@/lib/text/analyze';
import { numbersIn, truncate } from '@/lib/text/format';
import { citedRefs, splitSentences, stripCitations } from '@/lib/text/sentences';

/** A sentence of an answer that its cited sources do not support, and why. */
export interface UnsupportedSentence {
  /** 0-based sentence index in the answer. */
  index: number;
  sentence: string;
  refs: number[];
  reason: string;
}

export interface CheckResult {
  method: 'llm' | 'lexical';
  checked: number;
  unsupported: UnsupportedSentence[];
}

/** Share of a sentence's content terms its cited text must contain to count as supported. */
const LEXICAL_SUPPORT = 0.5;

// Declines and framing sentences make no claim about the sources.
const NO_CLAIM = /^(i (could not|couldn't|can't|cannot) find|no (relevant )?(information|passage)|sources?:)/i;
const makesNoClaim = (sentence: string) => isDecline(sentence) || NO_CLAIM.test(sentence);

interface Claim {
  index: number;
  sentence: string;
  refs: number[];
}

function claimsOf(answer: string): Claim[] {
  return splitSentences(answer)
    .map((sentence, index) => ({ index, sentence, refs: citedRefs(sentence) }))
    .filter((c) => !makesNoClaim(stripCitations(c.sentence).trim()) && terms(stripCitations(c.sentence)).length > 0);
}

function lexicalSupport(sentence: string, sourceText: string): { support: number; missingNumbers: string[] } {
  const claim = stripCitations(sentence);
  const claimTerms = [...new Set(terms(claim))];
  const sourceTerms = new Set(terms(sourceText));
  const support = claimTerms.length ? claimTerms.filter((t) => sourceTerms.has(t)).length / claimTerms.length : 1;
  const sourceNumbers = new Set(numbersIn(sourceText));
  const missingNumbers = numbersIn(claim).filter((n) => !sourceNumbers.has(n));
  return { support, missingNumbers };
}

/** Offline check. `sources` maps a ref to the text it stands for. */
export function checkLexically(answer: string, sources: Map<number, string>): CheckResult {
  const claims = claimsOf(answer);
  const allText = [...sources.values()].join('\n');
  const unsupported: UnsupportedSentence[] = [];
  for (const c of claims) {
    const known = c.refs.filter((r) => sources.has(r));
    const unknown = c.refs.filter((r) => !sources.has(r));
    if (unknown.length) {
      unsupported.push({ ...c, reason: `cites [${unknown.join('], [')}], which is not a retrieved source` });
      continue;
    }
    // An uncited sentence must still be backed by something that was retrieved.
    const text = known.length ? known.map((r) => sources.get(r)!).join('\n') : allText;
    const { support, missingNumbers } = lexicalSupport(c.sentence, text);
    const where = known.length ? 'its cited source' : 'any retrieved source (and cites none)';
    if (missingNumbers.length) {
      unsupported.push({ ...c, reason: `${missingNumbers.join(', ')} does not appear in ${where}` });
    } else if (support < LEXICAL_SUPPORT) {
      unsupported.push({ ...c, reason: `only ${Math.round(support * 100)}% of its terms appear in ${where}` });
    }
  }
  return { method: 'lexical', checked: claims.length, unsupported };
}

const verdictSchema = z.object({
  verdicts: z.array(z.object({ index: z.number().int(), supported: z.boolean(), reason: z.string().optional() })),
});

/** LLM judge, falling back to the lexical check if the call or its output fails. */
export async function checkAnswer(
  answer: string,
  sources: Map<number, string>,
  opts: { llm?: LlmClient | null; signal?: AbortSignal; recordUsage?: (u: LanguageModelUsage | undefined) => void } = {},
): Promise<CheckResult> {
  const claims = claimsOf(answer);
  if (!opts.llm || claims.length === 0) return checkLexically(answer, sources);
  try {
    const sourceBlock = [...sources.entries()].map(([ref, text]) => `[${ref}] ${truncate(text.replace(/\s+/g, ' '), 1200)}`).join('\n');
    const claimBlock = claims.map((c) => `${c.index}: ${c.sentence}`).join('\n');
    const result = await generateText({
      model: opts.llm.model,
      system:
        'You check an answer against its sources. A sentence is supported only if the sources it cites ' +
        '(or, when it cites none, any source) state what it claims, including every number and name.',
      prompt: `Sources:\n${sourceBlock}\n\nAnswer sentences (index: sentence):\n${claimBlock}\n\nReturn one verdict per index.`,
      output: Output.object({ schema: verdictSchema }),
      abortSignal: opts.signal,
      maxRetries: 0,
    });
    opts.recordUsage?.(result.usage);
    const byIndex = new Map(result.output.verdicts.map((v) => [v.index, v]));
    const unsupported: UnsupportedSentence[] = [];
    for (const c of claims) {
      const v = byIndex.get(c.index);
      // A sentence the judge skipped is judged lexically rather than waved through.
      if (!v) {
        const lexical = checkLexically(c.sentence, sources).unsupported[0];
        if (lexical) unsupported.push({ ...lexical, index: c.index });
      } else if (!v.supported) {
        unsupported.push({ ...c, reason: v.reason || 'the judge found no support in the cited sources' });
      }
    }
    return { method: 'llm', checked: claims.length, unsupported };
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return checkLexically(answer, sources);
  }
}

/**
 * The value lock's findings as sentence marks: a sentence with a value no cited passage contains
 * is unsupported, whatever the sentence check said, and the reason names the value.
 */
export function withUnverifiedValues(unsupported: UnsupportedSentence[], values: ValueCheck, answer: string): UnsupportedSentence[] {
  const sentences = splitSentences(answer);
  const out = [...unsupported];
  const bySentence = new Map<number, ValueCheck['unverified']>();
  for (const v of values.unverified) bySentence.set(v.sentence, [...(bySentence.get(v.sentence) ?? []), v]);
  for (const [index, found] of bySentence) {
    const reason = `${found.map((v) => v.value).join(', ')} ${found.length === 1 ? 'does' : 'do'} not appear in the cited source`;
    const at = out.findIndex((u) => u.index === index);
    if (at >= 0) out[at] = { ...out[at], reason: `${reason}; ${out[at].reason}` };
    else out.push({ index, sentence: sentences[index] ?? '', refs: found[0].refs, reason });
  }
  return out.sort((a, b) => a.index - b.index);
}
