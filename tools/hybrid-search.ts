/**
 * hybrid_search: every retriever at once, combined per page by the learned ranker. Two store legs
 * run over the scope — the store's hybrid passage search (dense + BM25) and the multi-vector page
 * search — and their results join the library's lexical signals (page, passage, heading and
 * manual BM25, coverage, OCR-tolerant matching, neighbour pages) in the learned ranker: a linear
 * model and boosted trees over it, trained listwise (lib/ranking). The tool returns the best pages in
 * that order, each with its best passages; the page leg's best pages are kept even when the
 * ranker puts them lower, since they may be figures the text cannot describe. One failing leg
 * does not fail the tool.
 */
import { z } from 'zod';
import { lookUpModels, pendingManualsNaming, unmentionedDesignations } from '@/lib/answer/applicability';
import { recommendedHybridAlpha } from '@/lib/providers/embeddings';
import type { ChunkHit, PageHit, Reranker } from '@/lib/providers/types';
import type { LibraryIndex } from '@/lib/ranking/library-index';
import { deviceTermsOf } from '@/lib/ranking/named-device';
import { rankPages, type RankedPage } from '@/lib/ranking/rank';
import { chunkObject, describeFound, distinctManuals, elapsed, manualField, pageObject, queryField, scopedSearch } from './search-common';
import { pagePreviewUrl, pageThumbnailUrl, probe, type ChunkObject, type Hit, type Tool } from '@/lib/agent/contract';

const inputs = z.object({
  query: queryField,
  text_limit: z.number().int().min(0).max(20).default(5).describe('pages chosen by the ranker, each with its best passages'),
  visual_limit: z.number().int().min(0).max(10).default(2).describe('best pages of the visual page leg, added if the ranker left them out'),
  manual: manualField,
});

/** Passages the store's hybrid leg returns: candidates for the ranker (see lib/ranking/features.ts). */
export const TEXT_CANDIDATES = 40;
/** Pages the multi-vector leg returns. */
export const VISUAL_CANDIDATES = 10;
/** Budget of the query embedding; past it the search goes on with keywords only. */
const QUERY_EMBED_TIMEOUT_MS = 10_000;
/**
 * A second passage of a page is returned when it scores at least this share of the page's best
 * (a presentation choice: how much of a page the answer sees, not a ranking weight).
 */
const SECOND_PASSAGE = 0.6;

/** Pages the cross-encoder re-reads (its cost grows with each; the rest keep the ranker's order). */
const RERANK_DEPTH = 10;

/** The ranker's best pages reordered by the cross-encoder's score of their best passage. */
async function rerankPages(reranker: Reranker, query: string, ranked: RankedPage[], signal: AbortSignal): Promise<RankedPage[]> {
  const head = ranked.slice(0, RERANK_DEPTH);
  const passages = head.map((p) => (p.chunks[0] ? `${p.chunks[0].chunk.heading}\n${p.chunks[0].chunk.text}` : ''));
  const scores = await reranker.score(query, passages, { signal });
  const reordered = head
    .map((p, i) => ({ p, s: passages[i] ? scores[i] : -Infinity }))
    .sort((a, b) => b.s - a.s)
    .map((x) => x.p);
  return [...reordered, ...ranked.slice(RERANK_DEPTH)];
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
const keyOf = (p: { manualId: string; page: number }) => `${p.manualId}\u0000${p.page}`;

function uniquePages<T extends { manualId: string; page: number }>(hits: T[]): T[] {
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(keyOf(h)) && !!seen.add(keyOf(h)));
}

export const hybridSearch: Tool<z.output<typeof inputs>> = {
  name: 'hybrid_search',
  display: {
    label: 'Text and page search',
    icon: 'layers',
    done: 'Searched the text and tables',
    running: 'Searching the text and tables…',
    noun: 'The text and table search',
  },
  defaultInput: (_t, query) => ({ query }),
  // First for every kind: it fuses the passage legs with the page leg colqwen_search runs.
  searchOrder: { visual: 0, table: 0, factual: 0, general: 0 },
  description:
    'Hybrid search: keyword + vector passages and the visual page search, fused per page. Best for error codes, menus, pins, part numbers, specs, tables and open questions.',
  status: 'Searching text and pages…',
  inputs,
  timeoutMs: 30_000,
  availability: (t) => probe('hybrid search is not configured', () => Promise.all([t.services.embedder(), t.services.vectorStore()])),
  run: scopedSearch(async function* (t, input, ctx, filter) {
    const [store, embedder] = await Promise.all([ctx.vectorStore(), ctx.embedder()]);
    // The dense/keyword balance measured for this embedder (offline n-grams lean on BM25).
    const alpha = recommendedHybridAlpha(embedder);
    const start = performance.now();
    let embedFailure: string | undefined;
    // The query embedding has a budget of its own: when the embedder fails or hangs, the text
    // legs fall back to keywords (BM25 and the lexical ranking) instead of failing the search.
    const queryVector = embedder
      .embedQuery(input.query, { signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS)]) })
      .catch((err: unknown) => {
        if (ctx.signal.aborted) throw err;
        embedFailure = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${QUERY_EMBED_TIMEOUT_MS / 1000} s` : errorMessage(err);
        return null;
      });
    // Only an abort rejects it; this keeps that rejection quiet when the tool returns early.
    queryVector.catch(() => undefined);
    const wantText = input.text_limit > 0;
    const textLeg = (async (): Promise<ChunkHit[]> => {
      if (!wantText) return [];
      const vector = await queryVector;
      if (!vector) return store.bm25Search(input.query, { limit: TEXT_CANDIDATES, filter, signal: ctx.signal });
      return store.hybridSearch(input.query, vector, { limit: TEXT_CANDIDATES, alpha, filter, signal: ctx.signal });
    })();
    const visualLeg = (async (): Promise<PageHit[]> => {
      if (input.visual_limit === 0) return [];
      const multiVector = await ctx.multiVectorEmbedder();
      const queryVectors = await multiVector.embedQuery(input.query, { signal: ctx.signal });
      return store.multiVectorSearch(queryVectors, { limit: Math.max(VISUAL_CANDIDATES, input.visual_limit), filter, signal: ctx.signal });
    })();
    const [text, visual] = await Promise.allSettled([textLeg, visualLeg]);
    const degraded = embedFailure && `the query could not be embedded (${embedFailure}): keyword search only`;
    if (degraded) yield { type: 'status', message: 'The embedding model failed; searching by keyword only' };
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

    // The ranker reads the library index (built once per library version) and the legs' results.
    let ranked: RankedPage[] = [];
    let identity: LibraryIndex | undefined;
    let rankError: string | undefined;
    const rankStart = performance.now();
    if (wantText) {
      try {
        const index = (identity = await ctx.libraryIndex());
        ranked = rankPages(index, { question: input.query, manualIds: filter?.manualIds, dense: chunkHits, visual: pageHits }, ctx.policies.ranking);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        rankError = errorMessage(err);
      }
    }
    // A device the question names puts its manual's pages first (lib/agent/device-context.ts, policy 'first').
    if (t.preferManualIds?.length) {
      const preferred = new Set(t.preferManualIds);
      ranked = [...ranked.filter((p) => preferred.has(p.manualId)), ...ranked.filter((p) => !preferred.has(p.manualId))];
    }
    // Last stage: a cross-encoder re-reads the best pages' passages with the question, when a model can be had.
    let rerank: string;
    const status = await ctx.reranker();
    if (status.reranker && ranked.length > 1) {
      try {
        ranked = await rerankPages(status.reranker, input.query, ranked, ctx.signal);
        rerank = status.reranker.id;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        rerank = `failed: ${errorMessage(err)}`;
      }
    } else {
      rerank = `skipped: ${status.reason ?? 'nothing to rerank'}`;
    }
    const rankMs = elapsed(rankStart);
    // Without the ranker (its index failed), the store's own passage order stands.
    const chosen: Array<{ manualId: string; page: number; score: number }> = (ranked.length ? ranked : uniquePages(chunkHits)).slice(0, input.text_limit);
    const chosenKeys = new Set(chosen.map(keyOf));
    // The page leg's best pages stay in, after the ranked ones: figures the text legs cannot rank.
    const visualExtra = pageHits.slice(0, input.visual_limit).filter((p) => !chosenKeys.has(keyOf(p)));
    const scoreOf = new Map<string, number>([...ranked, ...chosen].map((p) => [keyOf(p), p.score]));
    const visualScore = new Map(pageHits.map((p) => [keyOf(p), p.score]));
    const rankedByPage = new Map(ranked.map((p) => [keyOf(p), p]));

    const vector = await queryVector;
    const objects: Hit[] = [];
    let passages = 0;
    for (const p of [...chosen, ...visualExtra]) {
      const key = keyOf(p);
      const score = scoreOf.get(key) ?? 0;
      // The page's best passages: the ranker's (BM25 within the page) first, else the store's hits on it.
      const best = rankedByPage.get(key)?.chunks ?? [];
      const onPage: ChunkHit[] = best.length
        ? best
            .filter((c, i) => i === 0 || c.score >= best[0].score * SECOND_PASSAGE)
            .slice(0, 2)
            .map((c) => ({ ...c.chunk, score: c.score }))
        : chunkHits.filter((h) => keyOf(h) === key).slice(0, 1);
      if (onPage.length === 0) {
        const pageHit = pageHits.find((h) => keyOf(h) === key) ?? { ...p, score };
        objects.push({ ...(await pageObject(pageHit, ctx, vector)), score });
        continue;
      }
      for (const hit of onPage) {
        const object: ChunkObject = { ...(await chunkObject(hit, ctx)), score };
        const vs = visualScore.get(key);
        if (vs !== undefined) {
          object.visualScore = vs;
          object.previewUrl = pagePreviewUrl(p.manualId, p.page);
          object.thumbnailUrl = pageThumbnailUrl(p.manualId, p.page);
        }
        objects.push(object);
        passages++;
      }
    }

    // Whether the library mentions the model names the query gives: the answer's applicability
    // check reads it (lib/answer/applicability.ts).
    const models = identity ? lookUpModels(input.query, identity) : undefined;
    // A device no ready manual mentions may be one whose manual is still being processed.
    const unmentioned = identity ? unmentionedDesignations(input.query, identity) : [];
    const notReady = unmentioned.length ? pendingManualsNaming(unmentioned, await ctx.pendingManuals().catch(() => [])) : {};
    const failedLeg =
      text.status === 'rejected'
        ? `text leg failed: ${errorMessage(text.reason)}`
        : visual.status === 'rejected'
          ? `page leg failed: ${errorMessage(visual.reason)}`
          : undefined;
    const outPages = uniquePages(objects);
    const visualOut = outPages.filter((p) => visualScore.has(keyOf(p)));
    yield {
      type: 'result',
      name: 'hybrid',
      objects,
      metadata: {
        query: input.query,
        count: objects.length,
        passages,
        ranking: outPages.map((p) => ({ manualId: p.manualId, page: p.page, score: Math.round((scoreOf.get(keyOf(p)) ?? 0) * 10000) / 10000 })),
        pages: visualOut.map((p) => ({ manualId: p.manualId, page: p.page, score: visualScore.get(keyOf(p))! })),
        merged_pages: objects.filter((o) => o.kind === 'chunk' && o.visualScore !== undefined).length,
        alpha,
        manuals: distinctManuals(objects),
        search_ms: elapsed(start) - rankMs,
        rank_ms: rankMs,
        rerank,
        ...(failedLeg ? { partial: failedLeg } : {}),
        ...(degraded ? { degraded } : {}),
        ...(rankError ? { rank_error: rankError } : {}),
      },
      ...(models || Object.keys(notReady).length
        ? {
            modelLookup: {
              query: input.query,
              known: models?.known ?? {},
              ...(models?.variants ? { variants: models.variants } : {}),
              ...(Object.keys(notReady).length ? { notReady } : {}),
            },
          }
        : {}),
      // Per manual, the question's terms that name its device (the answer weighs them little).
      topicTerms: identity ? deviceTermsOf(identity, distinctManuals(objects), input.query) : {},
      llmMessage: `Hybrid search for "${input.query}": ${describeFound(objects, 'results')}${failedLeg ? ` (${failedLeg})` : ''}${degraded ? ` (${degraded})` : ''}.`,
    };
  }),
};
