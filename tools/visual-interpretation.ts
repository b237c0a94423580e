/**
 * visual_interpretation: sends a page image found by the page search to the vision model with a
 * precise question. Its reading becomes the page's citable text, so the answer can cite the
 * figure itself. Offered only once the page search has found pages and a VLM is configured.
 */
import { generateText } from 'ai';
import { z } from 'zod';
import { visionPrompt } from '@/lib/providers/llm';
import { elapsed } from './search-common';
import { pagePreviewUrl, pageThumbnailUrl, type Tool } from '@/lib/agent/contract';

const inputs = z.object({
  prompt: z.string().trim().min(1).max(2000).describe('what to read from the page, e.g. "which connector the transducer B1 plugs into"'),
  page: z.number().int().min(1).optional().describe('page number from the page search results; default: the best page'),
  manual_id: z.string().min(1).optional().describe('manual of that page, when several manuals have it'),
});

export const visualInterpretation: Tool<z.output<typeof inputs>> = {
  name: 'visual_interpretation',
  display: { label: 'Reading the page image', icon: 'image', done: 'Read a page image', running: 'Reading a page image…', noun: 'Reading the page image' },
  defaultInput(t) {
    const best = t.environment.visualPages()[0];
    return best ? { prompt: t.question, page: best.page, manual_id: best.manualId } : { prompt: t.question };
  },
  readsPages: true,
  description: 'Reads the best page found by the page search (or a chosen one) with the vision model: labels, pins, wiring, values in figures and photos.',
  status: 'Reading the page image…',
  inputs,
  timeoutMs: 60_000,
  async availability(t) {
    if (t.environment.visualPages().length === 0) {
      return { ok: false, reason: 'needs page results first: run colqwen_search (or hybrid_search) to find the page' };
    }
    if (!t.services.pageImage) return { ok: false, reason: 'page images are not available in this deployment' };
    try {
      if (!(await t.services.vlm())) return { ok: false, reason: 'no vision model is configured (set VLM_PROVIDER)' };
    } catch (err) {
      return { ok: false, reason: `the vision model failed to load: ${err instanceof Error ? err.message : String(err)}` };
    }
    return { ok: true };
  },
  async *run(t, input, ctx) {
    const candidates = t.environment.visualPages();
    const target =
      input.page === undefined
        ? candidates[0]
        : (candidates.find((c) => c.page === input.page && (!input.manual_id || c.manualId === input.manual_id)) ??
          (input.manual_id && (!t.manualIds?.length || t.manualIds.includes(input.manual_id))
            ? { manualId: input.manual_id, page: input.page, score: 0, ref: 0 }
            : undefined));
    if (!target) {
      yield {
        type: 'error',
        message: `page ${input.page} is not among the page search results`,
        recoverable: true,
        suggestion: `pick one of: ${candidates.map((c) => `page ${c.page} of ${c.manualId}`).join('; ')}`,
      };
      return;
    }
    const vlm = await ctx.vlm();
    if (!vlm || !ctx.pageImage) {
      yield { type: 'error', message: 'no vision model or page images are available', recoverable: false };
      return;
    }
    const title = (await ctx.manualTitle(target.manualId)) ?? target.manualId;
    yield { type: 'status', message: `Reading page ${target.page} of ${title}…` };
    const imageStart = performance.now();
    const image = await ctx.pageImage(target.manualId, target.page, { signal: ctx.signal });
    const imageMs = elapsed(imageStart);
    const vlmStart = performance.now();
    let result;
    try {
      result = await generateText({
        model: vlm.model,
        abortSignal: ctx.signal,
        maxRetries: 0, // the LLM client retries (lib/providers/retry.ts)
        messages: visionPrompt(
          `This is page ${target.page} of the equipment manual "${title}". ${input.prompt}\n` +
            'Answer only from what the page shows. Quote labels, pin names, part numbers and values exactly as printed. ' +
            'If the page does not show it, say so.',
          [image],
        ),
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // The client has already retried (429, 5xx, timeouts): another call this turn would only
      // repeat that wait, so the tool bows out and the answer comes from the text passages.
      yield { type: 'status', message: 'The vision model failed; answering from the text passages' };
      yield {
        type: 'error',
        message: `the vision model could not read page ${target.page} of ${title}: ${err instanceof Error ? err.message : String(err)}`,
        recoverable: false,
      };
      return;
    }
    ctx.recordUsage(result.usage);
    const reading = result.text.trim();
    if (!reading) {
      yield { type: 'error', message: 'the vision model returned no text', recoverable: true, suggestion: 'ask a narrower question about the page' };
      return;
    }
    yield {
      type: 'result',
      name: 'interpretation',
      objects: [
        {
          kind: 'page',
          manualId: target.manualId,
          manualTitle: title === target.manualId ? undefined : title,
          page: target.page,
          score: target.score,
          previewUrl: pagePreviewUrl(target.manualId, target.page),
          thumbnailUrl: pageThumbnailUrl(target.manualId, target.page),
          text: reading,
          textSource: 'vlm',
        },
      ],
      metadata: { manualId: target.manualId, page: target.page, model: vlm.modelId, count: 1, image_ms: imageMs, vlm_ms: elapsed(vlmStart) },
      llmMessage: `Vision model read page ${target.page} of ${title}: ${reading.slice(0, 300)}`,
    };
  },
};
