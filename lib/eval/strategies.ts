/**
 * The eval strategies. Each takes a question and returns the pages it retrieved, best first
 * (and, for the agent, its answer). Retrieval strategies query the vector store directly over
 * every ingested manual (no manual filter), asking for enough chunks to fill k unique pages.
 *
 *   baseline     page-level BM25 over page text + OCR (lib/eval/baseline.ts): no product needed
 *   bm25         VectorStore.bm25Search over chunks
 *   dense        VectorStore.denseSearch with the query embedding
 *   hybrid       VectorStore.hybridSearch (alpha = recommendedHybridAlpha(embedder))
 *   multivector  VectorStore.multiVectorSearch over pages (late interaction, MaxSim)
 *   ranker       the learned page ranker (lib/ranking) over the legs hybrid_search runs
 *   agent        the full decision loop (runTurn), scoped to every ready manual
 */
import { defaultTools } from '@/tools';
import { TEXT_CANDIDATES, VISUAL_CANDIDATES } from '@/tools/hybrid-search';
import { historyOf, runTurn, type AnyTool, type DeviceContext, type RunTurnOptions, type TurnPolicies } from '../agent';
import { agentServices, type AgentDeps } from '../services/agent-services';
import type { AnswerEvidence } from '../answer/decide';
import type { AnswerMode } from '../answer/form';
import type { RankingInput } from '../ranking/features';
import { libraryIndex } from '../ranking/library-cache';
import { rankPages as rankLibraryPages } from '../ranking/rank';
import type { ChunkHit, Embedder, MultiVectorEmbedder, VectorStore } from '../providers/types';
import type { BaselineIndex } from './baseline';
import { rankPages, type PageRef } from './metrics';
import type { StrategyName } from './report';

export interface StrategyContext {
  store: VectorStore;
  embedder: Embedder;
  multiVector: MultiVectorEmbedder;
  /** Dense weight for hybridSearch. */
  alpha: number;
  baseline: BaselineIndex<PageRef>;
  /** The agent's scope: every ready manual. */
  manualIds: string[];
  agentDeps?: AgentDeps;
  agentOptions?: RunTurnOptions;
  /** The agent's tools; default: the app's registry. */
  agentTools?: readonly AnyTool[];
  /** Policies for the ranker and the agent that differ from the shipped ones (a fold's model, a chosen form policy). */
  policies?: Partial<TurnPolicies>;
}

export interface StrategyOutput {
  /** Unique pages, best first (at least `depth` when the corpus has them). */
  pages: PageRef[];
  answer?: {
    text: string;
    declined: boolean;
    path: string[];
    status: string;
    unverifiedValues?: number;
    evidence?: AnswerEvidence;
    mode?: AnswerMode;
    shownPages?: PageRef[];
    /** `clarify`: the manuals offered. */
    choices?: string[];
    /** The top device's share of the closest pages, when the turn had no device (lib/answer/clarify.ts). */
    deviceShare?: number;
    /** The manuals a stated answer cites. */
    citedManuals?: string[];
  };
}

/**
 * A chat the eval asks a multi-turn session in: what the app keeps between turns (the answered
 * turns and the device context). The agent reads it and adds its turn; other strategies ignore it.
 */
export interface EvalChat {
  turns: Array<{ question: string; answer: string; status: string }>;
  device: DeviceContext | null;
}

export type Strategy = (question: string, depth: number, ctx: StrategyContext, chat?: EvalChat) => Promise<StrategyOutput>;

/** Most chunks asked for while looking for `depth` unique pages. */
const MAX_CHUNK_CANDIDATES = 1000;

/**
 * Chunk search → `depth` unique pages: start at 4 chunks per page and double the candidates
 * until there are enough pages, the store has nothing more, or the cap is reached.
 */
async function pagesFromChunks(search: (limit: number) => Promise<ChunkHit[]>, depth: number): Promise<PageRef[]> {
  let limit = Math.max(20, depth * 4);
  for (;;) {
    const hits = await search(limit);
    const pages = rankPages(hits);
    if (pages.length >= depth || hits.length < limit || limit >= MAX_CHUNK_CANDIDATES) return pages.slice(0, depth);
    limit = Math.min(MAX_CHUNK_CANDIDATES, limit * 2);
  }
}

/** The ranker's input for a question: the same two store legs hybrid_search runs. */
export async function rankerInput(question: string, ctx: StrategyContext): Promise<RankingInput> {
  const vector = await ctx.embedder.embedQuery(question);
  const [dense, visual] = await Promise.all([
    ctx.store.hybridSearch(question, vector, { limit: TEXT_CANDIDATES, alpha: ctx.alpha }),
    ctx.multiVector.embedQuery(question).then((v) => ctx.store.multiVectorSearch(v, { limit: VISUAL_CANDIDATES })),
  ]);
  return { question, dense, visual };
}

export const STRATEGY_FNS: Record<StrategyName, Strategy> = {
  baseline: async (question, depth, ctx) => ({ pages: ctx.baseline.search(question, depth).map((h) => h.key) }),

  bm25: async (question, depth, ctx) => ({
    pages: await pagesFromChunks((limit) => ctx.store.bm25Search(question, { limit }), depth),
  }),

  dense: async (question, depth, ctx) => {
    const vector = await ctx.embedder.embedQuery(question);
    return { pages: await pagesFromChunks((limit) => ctx.store.denseSearch(vector, { limit }), depth) };
  },

  hybrid: async (question, depth, ctx) => {
    const vector = await ctx.embedder.embedQuery(question);
    return { pages: await pagesFromChunks((limit) => ctx.store.hybridSearch(question, vector, { limit, alpha: ctx.alpha }), depth) };
  },

  multivector: async (question, depth, ctx) => {
    const vectors = await ctx.multiVector.embedQuery(question);
    return { pages: rankPages(await ctx.store.multiVectorSearch(vectors, { limit: depth })) };
  },

  ranker: async (question, depth, ctx) => {
    const ranked = rankLibraryPages(await libraryIndex(), await rankerInput(question, ctx), ctx.policies?.ranking);
    return { pages: ranked.slice(0, depth).map((p) => ({ manualId: p.manualId, page: p.page })) };
  },

  // The agent decides its own depth (tool limits); every page it retrieved counts, in event order.
  agent: async (question, _depth, ctx, chat) => {
    const hits: PageRef[] = [];
    let answer: StrategyOutput['answer'] = { text: '', declined: false, path: [], status: 'failed' };
    let text = '';
    let declined = false;
    let path: string[] = [];
    let unverifiedValues = 0;
    let evidence: AnswerEvidence | undefined;
    let mode: AnswerMode | undefined;
    let shownPages: PageRef[] | undefined;
    let extra: Pick<NonNullable<StrategyOutput['answer']>, 'choices' | 'deviceShare' | 'citedManuals'> = {};
    const errors: string[] = [];
    const inChat = chat ? { history: historyOf(chat.turns), device: chat.device, turn: chat.turns.length + 1 } : {};
    for await (const e of runTurn({ question, tools: ctx.agentTools ?? defaultTools, manualIds: ctx.manualIds, services: agentServices({ ...ctx.agentDeps, policies: { ...ctx.agentDeps?.policies, ...ctx.policies } }), options: ctx.agentOptions, ...inChat })) {
      if (e.type === 'result') hits.push(...e.hits);
      else if (e.type === 'scope' && chat) chat.device = e.device;
      else if (e.type === 'response') {
        text = e.text;
        declined = e.declined === true;
        evidence = e.evidence;
        mode = e.mode;
        shownPages = e.pages?.map((p) => ({ manualId: p.manualId, page: p.page }));
        extra = {
          ...(e.choices?.length ? { choices: e.choices.map((c) => c.manualId) } : {}),
          ...(e.device_share !== undefined ? { deviceShare: e.device_share } : {}),
          ...(e.mode === 'answer' ? { citedManuals: [...new Set(e.sources.map((s) => s.manualId))] } : {}),
        };
      } else if (e.type === 'error') errors.push(`${e.tool}: ${e.message}`);
      else if (e.type === 'metrics') path = e.path;
      else if (e.type === 'check') unverifiedValues = e.values?.unverified.length ?? 0;
      else if (e.type === 'done') answer = { text, declined, path, status: e.status, unverifiedValues, ...(evidence ? { evidence } : {}), ...(mode ? { mode } : {}), ...(shownPages ? { shownPages } : {}), ...extra };
    }
    chat?.turns.push({ question, answer: text, status: answer.status });
    if (answer.status === 'failed' && !text) throw new Error(`the turn failed${errors.length ? `: ${errors.join('; ')}` : ''}`);
    return { pages: rankPages(hits), answer };
  },
};
