/**
 * colqwen_search: late-interaction (MaxSim) search over whole pages with the multi-vector
 * embedder. It ranks pages, so it finds figures, tables and diagrams whose words are scattered
 * labels rather than prose. Each hit carries the page image URLs and the page's best passages.
 */
import { z } from 'zod';
import { describeFound, distinctManuals, elapsed, manualField, pageObject, queryField, scopedSearch } from './search-common';
import { probe, type Tool } from '@/lib/agent/contract';

const inputs = z.object({
  query: queryField,
  top_k: z.number().int().min(1).max(10).default(3).describe('pages to return'),
  manual: manualField,
});

export const colqwenSearch: Tool<z.output<typeof inputs>> = {
  name: 'colqwen_search',
  display: {
    label: 'Page image search',
    icon: 'image',
    done: 'Looked through the page images',
    running: 'Looking through the page images…',
    noun: 'The page image search',
  },
  defaultInput: (_t, query) => ({ query }),
  searchOrder: { visual: 1, table: 2, factual: 2, general: 2 },
  description:
    'Multi-vector (ColQwen-style) search over whole pages. Best for diagrams, wiring, pinouts, figures, photos and tables laid out visually; results are pages with preview images.',
  status: 'Searching pages visually…',
  inputs,
  timeoutMs: 30_000,
  availability: (t) => probe('page search is not configured', () => Promise.all([t.services.multiVectorEmbedder(), t.services.vectorStore()])),
  run: scopedSearch(async function* (t, input, ctx, filter) {
    const [multiVector, store] = await Promise.all([ctx.multiVectorEmbedder(), ctx.vectorStore()]);
    const searchStart = performance.now();
    const queryVectors = await multiVector.embedQuery(input.query, { signal: ctx.signal });
    const pages = await store.multiVectorSearch(queryVectors, { limit: input.top_k, filter, signal: ctx.signal });
    const searchMs = elapsed(searchStart);
    // Passages make the pages citable; without a working dense embedder the pages stay image-only.
    const dense = await ctx.embedder().catch(() => null);
    const queryVector =
      dense && pages.length
        ? await dense.embedQuery(input.query, { signal: ctx.signal }).catch((err: unknown) => {
            if (ctx.signal.aborted) throw err;
            return null;
          })
        : null;
    const objects = await Promise.all(pages.map((p) => pageObject(p, ctx, queryVector)));
    yield {
      type: 'result',
      name: 'pages',
      objects,
      metadata: {
        query: input.query,
        count: objects.length,
        manuals: distinctManuals(objects),
        pages: objects.map((o) => ({ manualId: o.manualId, page: o.page, score: o.score })),
        search_ms: searchMs,
        passages_ms: elapsed(searchStart) - searchMs,
      },
      llmMessage: `Page search for "${input.query}": ${describeFound(objects, 'pages')}.`,
    };
  }),
};
