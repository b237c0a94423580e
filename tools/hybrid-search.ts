/**
 * hybrid_search: every retriever at once, fused at the page level. Three legs run over the scope:
 *
 *   - the store's hybrid passage search (dense + BM25): candidates and the manuals they come from;
 *   - the multi-vector page search: pages whose content is visual (figures, tables, drawings);
 *   - a lexical page ranking (tools/lexical.ts) over the candidate manuals: which manual the
 *     question names, then which of its pages (headings included, device names discounted).
 *
 * The three page rankings are fused (weighted RRF) and the tool returns the best pages in that
 * order, each with its best passages; the page leg's best pages are kept even when the text legs
 * outvote them, since they may be figures the text cannot describe. One failing leg does not fail
 * the tool.
 */
import { z } from 'zod';
import { recommendedHybridAlpha } from '@/lib/providers/embeddings';
import type { ChunkHit, PageHit, SearchFilter } from '@/lib/providers/types';
import { fusePageRankings, type PageKey } from '@/lib/providers/vectorstore/fusion';
import { loadLexicons, rankPagesLexically, type LexicalRanking } from './lexical';
import {
  chunkObject,
  describeFound,
  distinctManuals,
  elapsed,
  manualField,
  pageObject,
  queryField,
  scopedSearch,
} from './search-common';
import { pagePreviewUrl, pageThumbnailUrl, probe, TOOL, type ChunkObject, type Hit, type Tool } from '@/lib/agent/contract';

const inputs = z.object({
  query: queryField,
  text_limit: z.number().int().min(0).max(20).default(4).describe('pages chosen by the fused ranking, each with its best passages'),
  visual_limit: z.number().int().min(0).max(10).default(2).describe('best pages of the visual page leg, added if the fused ranking left them out'),
  manual: manualField,
});

/** Passages the store's hybrid leg returns: enough to name the candidate manuals and pages. */
export const TEXT_CANDIDATES = 40;
/** Pages the multi-vector leg returns. */
export const VISUAL_CANDIDATES = 10;
/** The lexical ranking covers the scope when it is this small, else the candidates' manuals. */
export const LEXICAL_MAX_MANUALS = 12;
/**
 * Weights of the page rankings in the fusion (weighted RRF, k = PAGE_RRF_K). The lexical ranking
 * leads; the store's passages and the page leg break its ties and add what it cannot see (a
 * paraphrase, a figure). Measured, agent MRR on the dev set / the sample manual: lexical alone
 * 0.84 / 0.92, with the two others at 0.15 each 0.84 / 0.92, at 0.3 each 0.85 / 0.89, at 0.5 each
 * 0.80 / 0.89: within a question of each other; 0.3 keeps the other legs audible for wording the
 * lexical leg cannot match.
 */
export const FUSION_WEIGHTS = { lexical: 1, passages: 0.3, visual: 0.3 } as const;
/** Budget of the query embedding; past it the search goes on with keywords only. */
export const QUERY_EMBED_TIMEOUT_MS = 10_000;
/** A second passage of a page is returned when it scores at least this share of the page's best. */
const SECOND_PASSAGE = 0.6;

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
const unitVector = (dimensions: number) => Float32Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0));
const keyOf = (p: PageKey) => `${p.manualId}\u0000${p.page}`;

function uniquePages(hits: Array<PageKey>): PageKey[] {
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(keyOf(h)) && !!seen.add(keyOf(h)));
}

/** The manuals the lexical ranking covers: the scope if small, else the candidates' manuals. */
function lexicalManuals(filter: SearchFilter | undefined, candidates: PageKey[]): string[] {
  const scope = filter?.manualIds?.length ? filter.manualIds : undefined;
  if (scope && scope.length <= LEXICAL_MAX_MANUALS) return [...new Set(scope)];
  return distinctManuals(candidates).slice(0, LEXICAL_MAX_MANUALS);
}

export const hybridSearch: Tool<z.output<typeof inputs>> = {
  name: TOOL.hybrid,
  description:
    'Hybrid search: keyword + vector passages and the visual page search, fused per page. Best for error codes, menus, pins, part numbers, specs, tables and open questions.',
  status: 'Searching text and pages…',
  inputs,
  timeoutMs: 30_000,
  availability: (t) =>
    probe('hybrid search is not configured', () => Promise.all([t.services.embedder(), t.services.vectorStore()])),
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

    // The lexical leg needs the candidates' manuals; it is an improvement, never a requirement.
    let lexical: LexicalRanking = { pages: [], manuals: new Map(), topicTerms: new Map() };
    let lexicalError: string | undefined;
    const lexicalStart = performance.now();
    if (wantText && text.status === 'fulfilled') {
      try {
        const manuals = lexicalManuals(filter, [...chunkHits, ...pageHits]);
        // Reading a manual's chunks takes any vector of the store's size (see loadLexicons).
        const lexicons = await loadLexicons(store, manuals, (await queryVector) ?? unitVector(embedder.dimensions), ctx.signal);
        lexical = rankPagesLexically(input.query, lexicons);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        lexicalError = errorMessage(err);
      }
    }
    const lexicalMs = elapsed(lexicalStart);

    const fused = fusePageRankings([
      { pages: lexical.pages, weight: FUSION_WEIGHTS.lexical },
      { pages: uniquePages(chunkHits), weight: FUSION_WEIGHTS.passages },
      { pages: pageHits, weight: FUSION_WEIGHTS.visual },
    ]);
    const chosen = fused.slice(0, input.text_limit);
    const chosenKeys = new Set(chosen.map(keyOf));
    // The page leg's best pages stay in, after the fused ones: figures the text legs cannot rank.
    const visualExtra = pageHits.slice(0, input.visual_limit).filter((p) => !chosenKeys.has(keyOf(p)));
    const scoreOf = new Map(fused.map((p) => [keyOf(p), p.score]));
    const visualScore = new Map(pageHits.map((p) => [keyOf(p), p.score]));
    const lexicalByPage = new Map(lexical.pages.map((p) => [keyOf(p), p]));

    const vector = await queryVector;
    const objects: Hit[] = [];
    let passages = 0;
    for (const p of [...chosen, ...visualExtra]) {
      const key = keyOf(p);
      const score = scoreOf.get(key) ?? 0;
      // The page's best passages: lexical ones first, else the store's hybrid hits on that page.
      const lex = lexicalByPage.get(key)?.chunks ?? [];
      const onPage: ChunkHit[] = lex.length
        ? lex.filter((c, i) => i === 0 || c.score >= lex[0].score * SECOND_PASSAGE).slice(0, 2).map((c) => c.hit)
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

    const failedLeg =
      text.status === 'rejected' ? `text leg failed: ${errorMessage(text.reason)}` : visual.status === 'rejected' ? `page leg failed: ${errorMessage(visual.reason)}` : undefined;
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
        manual_scores: Object.fromEntries([...lexical.manuals].map(([id, s]) => [id, Math.round(s * 1000) / 1000])),
        alpha,
        manuals: distinctManuals(objects),
        search_ms: elapsed(start) - lexicalMs,
        lexical_ms: lexicalMs,
        ...(failedLeg ? { partial: failedLeg } : {}),
        ...(degraded ? { degraded } : {}),
        ...(lexicalError ? { lexical_error: lexicalError } : {}),
      },
      // Question terms that name each manual's device (on most of its pages): see extractive.ts.
      topicTerms: Object.fromEntries([...lexical.topicTerms].filter(([, ts]) => ts.length > 0)),
      llmMessage: `Hybrid search for "${input.query}": ${describeFound(objects, 'results')}${failedLeg ? ` (${failedLeg})` : ''}${degraded ? ` (${degraded})` : ''}.`,
    };
  }),
};
