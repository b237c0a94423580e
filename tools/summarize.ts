/**
 * summarize: condenses the environment so the answer step fits the model again. With an LLM it
 * writes a cited summary; offline it extracts the most relevant sentences. Afterwards the loop
 * trims long passages to their relevant sentences (refs stay the same). Auto-runs when the
 * environment grows past SUMMARIZE_ABOVE_TOKENS.
 */
import { generateText } from 'ai';
import { z } from 'zod';
import { extractiveSummary } from '@/lib/answer/extractive';
import { elapsed } from './search-common';
import { type Tool } from '@/lib/agent/contract';

export const SUMMARIZE_ABOVE_TOKENS = 30_000;
/** Passage length kept after a summary. */
const COMPACT_CHARS_PER_HIT = 600;

const inputs = z.object({
  max_length: z.number().int().min(20).max(2000).default(200).describe('maximum words of the summary'),
});

export const summarize: Tool<z.output<typeof inputs>> = {
  name: 'summarize',
  display: {
    label: 'Summarizing the findings',
    icon: 'sparkle',
    done: 'Summarized what was found',
    running: 'Summarizing what was found…',
    noun: 'Summarizing',
  },
  description: 'Summarizes what has been retrieved so far (cited) and shrinks long passages. Use when the environment is large.',
  status: 'Summarizing what was found…',
  inputs,
  timeoutMs: 60_000,
  async availability(t) {
    return t.environment.textHits().length > 0 ? { ok: true } : { ok: false, reason: 'nothing has been retrieved yet to summarize' };
  },
  async runIf(t) {
    const env = t.environment;
    // Once per state: after compaction the environment is smaller, and an unchanged one is not re-summarized.
    if (env.estimateTokens() > SUMMARIZE_ABOVE_TOKENS && env.summarizedVersion !== env.version) return { max_length: 200 };
    return null;
  },
  async *run(t, input, ctx) {
    const hits = t.environment.textHits();
    const tokensBefore = t.environment.estimateTokens();
    const start = performance.now();
    const llm = await ctx.llm();
    let summary = '';
    let method: 'llm' | 'extractive' = 'extractive';
    if (llm) {
      try {
        const result = await generateText({
          model: llm.model,
          abortSignal: ctx.signal,
          maxRetries: 0, // the LLM client retries (lib/providers/retry.ts)
          system:
            `Summarize the numbered manual passages for answering the question, in at most ${input.max_length} words. ` +
            'Keep exact values, units, part numbers, codes and steps; cite each fact with its [n]; drop what is irrelevant.',
          prompt: `Question: ${t.question}\n\nPassages:\n${t.environment.describe({ maxCharsPerHit: 3000 }).slice(0, 200_000)}`,
        });
        ctx.recordUsage(result.usage);
        summary = result.text.trim();
        method = 'llm';
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        yield { type: 'status', message: 'LLM summary failed; summarizing extractively' };
      }
    }
    if (!summary) summary = extractiveSummary(t.question, hits, input.max_length);
    yield {
      type: 'result',
      name: 'summary',
      objects: [],
      metadata: { method, words: summary.split(/\s+/).filter(Boolean).length, tokens_before: tokensBefore, count: hits.length, summary_ms: elapsed(start) },
      llmMessage: summary,
      compactEnvironment: { maxCharsPerHit: COMPACT_CHARS_PER_HIT },
    };
  },
};
