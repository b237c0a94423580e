/**
 * hybrid_search: the dense+BM25 passage search and the multi-vector page search, run in parallel
 * and merged. Keyword matching catches codes, part numbers and parameter names that embeddings
 * blur; the page leg adds pages whose content is visual. One failing leg does not fail the tool.
 */
import { z } from 'zod';
import { recommendedHybridAlpha } from '@/lib/providers/embeddings';
import type { ChunkHit, PageHit } from '@/lib/providers/types';
import {
  chunkObject,
  describeFound,
  distinctManuals,
  elapsed,
  manualField,
  pageObject,
  queryField,
  ScopeError,
  scopeFilter,
} from './search-common';
import { pagePreviewUrl, pageThumbnailUrl, probe, TOOL, type ChunkObject, type Hit, type Tool } from './tool';

const inputs = z.object({
  query: queryField,
  text_limit: z.number().int().min(0).max(20).default(3).describe('passages from the text (vector + keyword) leg'),
  visual_limit: z.number().int().min(0).max(10).default(2).describe('pages from the visual page leg'),
  manual: manualField,
});

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

export const hybridSearch: Tool<z.output<typeof inputs>> = {
  name: TOOL.hybrid,
  description:
    'Hybrid search: vector + keyword (BM25) over passages, plus the visual page search, merged. Best for error codes, menus, pins, part numbers, tables and open questions.',
  status: 'Searching text and pages…',
  inputs,
  timeoutMs: 30_000,
  availability: (t) =>
    probe('hybrid search is not configured', () => Promise.all([t.providers.embedder(), t.providers.vectorStore()])),
  async *run(t, input, ctx) {
    let filter;
    try {
      filter = scopeFilter(t, input.manual);
    } catch (err) {
      if (!(err instanceof ScopeError)) throw err;
      yield { type: 'error', message: err.message, recoverable: true, suggestion: 'search without the manual filter' };
      return;
    }
    const [store, embedder] = await Promise.all([ctx.vectorStore(), ctx.embedder()]);
    // The dense/keyword balance measured for this embedder (offline n-grams lean on BM25).
    const alpha = recommendedHybridAlpha(embedder);
    const start = performance.now();
    const queryVector = embedder.embedQuery(input.query, { signal: ctx.signal });
    // Awaited by the text leg (which reports its failure); this keeps an unused rejection quiet.
    queryVector.catch(() => undefined);
    const textLeg = (async (): Promise<ChunkHit[]> => {
      if (input.text_limit === 0) return [];
      return store.hybridSearch(input.query, await queryVector, { limit: input.text_limit, alpha, filter, signal: ctx.signal });
    })();
    const visualLeg = (async (): Promise<PageHit[]> => {
      if (input.visual_limit === 0) return [];
      const multiVector = await ctx.multiVectorEmbedder();
      const queryVectors = await multiVector.embedQuery(input.query, { signal: ctx.signal });
      return store.multiVectorSearch(queryVectors, { limit: input.visual_limit, filter, signal: ctx.signal });
    })();
    const [text, visual] = await Promise.allSettled([textLeg, visualLeg]);
    const searchMs = elapsed(start);
    if (text.status === 'rejected' && visual.status === 'rejected') {
      yield {
        type: 'error',
        message: `hybrid search failed: text leg: ${errorMessage(text.reason)}; page leg: ${errorMessage(visual.reason)}`,
        recoverable: true,
        suggestion: 'try fast_vector_search',
      };
      return;
    }
    const chunkHits = text.status === 'fulfilled' ? text.value : [];
    const pageHits = visual.status === 'fulfilled' ? visual.value : [];

    // De-duplicate: chunks by id; a page the text leg already cites folds into its chunks
    // (they gain the page's visual score and preview), other pages stay as page hits.
    const chunks: ChunkObject[] = [];
    for (const hit of chunkHits) {
      if (!chunks.some((c) => c.chunkId === hit.id)) chunks.push(await chunkObject(hit, ctx));
    }
    const uncoveredPages: PageHit[] = [];
    for (const page of pageHits) {
      if (uncoveredPages.some((p) => p.manualId === page.manualId && p.page === page.page)) continue;
      const onPage = chunks.filter((c) => c.manualId === page.manualId && c.page === page.page);
      for (const c of onPage) {
        c.visualScore = page.score;
        c.previewUrl = pagePreviewUrl(page.manualId, page.page);
        c.thumbnailUrl = pageThumbnailUrl(page.manualId, page.page);
      }
      if (onPage.length === 0) uncoveredPages.push(page);
    }
    const pageObjects = await Promise.all(uncoveredPages.map(async (p) => pageObject(p, ctx, await queryVector.catch(() => null))));
    const objects: Hit[] = [...chunks, ...pageObjects];
    const failedLeg =
      text.status === 'rejected' ? `text leg failed: ${errorMessage(text.reason)}` : visual.status === 'rejected' ? `page leg failed: ${errorMessage(visual.reason)}` : undefined;
    yield {
      type: 'result',
      name: 'hybrid',
      objects,
      metadata: {
        query: input.query,
        count: objects.length,
        passages: chunks.length,
        pages: pageHits.map((p) => ({ manualId: p.manualId, page: p.page, score: p.score })),
        merged_pages: pageHits.length - uncoveredPages.length,
        alpha,
        manuals: distinctManuals(objects),
        search_ms: searchMs,
        ...(failedLeg ? { partial: failedLeg } : {}),
      },
      llmMessage: `Hybrid search for "${input.query}": ${describeFound(objects, 'results')}${failedLeg ? ` (${failedLeg})` : ''}.`,
    };
  },
};
