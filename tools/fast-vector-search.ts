/**
 * fast_vector_search: dense similarity over passages. One embedding and one ANN query, so it is
 * the quickest tool; best for definitions, specs and simple facts phrased like the manual.
 */
import { z } from 'zod';
import { chunkObject, describeFound, distinctManuals, elapsed, manualField, queryField, scopedSearch } from './search-common';
import { probe, type Tool } from '@/lib/agent/contract';

const inputs = z.object({
  query: queryField,
  limit: z.number().int().min(1).max(20).default(5).describe('passages to return'),
  manual: manualField,
});

export const fastVectorSearch: Tool<z.output<typeof inputs>> = {
  name: 'fast_vector_search',
  display: { label: 'Quick text search', icon: 'search', done: 'Searched the text', running: 'Searching the text…', noun: 'The text search' },
  defaultInput: (_t, query) => ({ query }),
  searchOrder: { visual: 2, table: 1, factual: 1, general: 1 },
  description: 'Dense vector search over text passages. Fastest. Best for definitions, specifications and simple facts.',
  status: 'Searching text passages…',
  inputs,
  timeoutMs: 20_000,
  availability: (t) => probe('text search is not configured', () => Promise.all([t.services.embedder(), t.services.vectorStore()])),
  run: scopedSearch(async function* (t, input, ctx, filter) {
    const [embedder, store] = await Promise.all([ctx.embedder(), ctx.vectorStore()]);
    const embedStart = performance.now();
    const vector = await embedder.embedQuery(input.query, { signal: ctx.signal });
    const embedMs = elapsed(embedStart);
    const searchStart = performance.now();
    const hits = await store.denseSearch(vector, { limit: input.limit, filter, signal: ctx.signal });
    const searchMs = elapsed(searchStart);
    const objects = await Promise.all(hits.map((h) => chunkObject(h, ctx)));
    yield {
      type: 'result',
      name: 'passages',
      objects,
      metadata: { query: input.query, count: objects.length, manuals: distinctManuals(objects), embed_ms: embedMs, search_ms: searchMs },
      llmMessage: `Dense search for "${input.query}": ${describeFound(objects, 'passages')}.`,
    };
  }),
};
