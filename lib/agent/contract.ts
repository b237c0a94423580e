/**
 * The tool contract: the one module both the decision loop (lib/agent/tree.ts) and the tools
 * (tools/) import, so neither imports the other. A tool is a small object the loop can list
 * (with its availability and the reason when it is not available), validate input for (zod,
 * defaults in the schema), auto-trigger (runIf) and run. Running yields a discriminated union of
 * outputs — status, result, error, response — that the loop folds into the environment (TreeData)
 * and streams as events. The README's Architecture section has the whole picture.
 */
import type { AnswerEvidence } from '@/lib/answer/decide';
import type { AnswerMode } from '@/lib/answer/form';
import type { PageUnit } from '@/lib/answer/structured';
import type { DeviceChoice } from '@/lib/answer/clarify';
import type { LanguageModelUsage } from 'ai';
import type { z } from 'zod';
import type { DeciderProvider } from '@/lib/providers/descriptor';
import type { Embedder, LlmClient, MultiVectorEmbedder, Reranker, VectorStore } from '@/lib/providers/types';
import type { LibraryIndex } from '@/lib/ranking/library-index';
import type { Skill } from './decision/skills';
import type { TurnPolicies } from './policies';
import type { Environment } from './environment';
import type { PageCard } from '../answer/closest-pages';
import type { PendingManual, Source, ToolResult } from '../answer/hits';
import { pageImageLink } from '../text/page-links';

export type { ChunkObject, EventHit, Hit, PageObject, RefHit, Source, TopicTerms } from '../answer/hits';
export type { PendingManual };

/** How the answer was written: by the language model, or extractively from the passages. */
export type AnswerMethod = 'llm' | 'extractive';

export type ToolOutput =
  | { type: 'status'; message: string }
  | ToolResult
  | {
      type: 'error';
      message: string;
      recoverable: boolean;
      suggestion?: string;
      /** Set by the interceptors so the audit can tell validation and deadline failures apart. */
      code?: 'invalid_input' | 'timeout' | 'exception';
    }
  | {
      type: 'response';
      delta?: string;
      /** With a delta: discard what was streamed so far (the answer restarts, e.g. after an LLM failure). */
      reset?: boolean;
      text?: string;
      sources?: Source[];
      /** With text: the answer says the manuals do not cover the question. */
      declined?: boolean;
      /** With text: how the answer was written. */
      method?: AnswerMethod;
      /** With text: why the language model's answer was replaced by an extractive one. */
      fallbackReason?: string;
      /** With text: what an offline answer's decision to answer or decline was based on. */
      evidence?: AnswerEvidence;
      /** With text: the form of the reply (lib/answer/form.ts). */
      mode?: AnswerMode;
      /** With text, in the `pages` and `not_covered` forms: the closest pages, best first. */
      pages?: ClosestPage[];
      /** With text, in the `clarify` form: the candidate devices, most likely first. */
      choices?: DeviceChoice[];
      /** With text: the top device's share of the closest pages (lib/answer/clarify.ts), when the turn could have asked. */
      deviceShare?: number;
      /** With text: manuals searched while still processing (their ready pages only). */
      processing?: ProcessingManual[];
      metadata?: Record<string, unknown>;
    };

/** A manual a turn searched while it was still processing: how far it was searchable. */
export interface ProcessingManual {
  manualId: string;
  title: string;
  searchablePages: number;
  pageCount: number | null;
  figureLabels: 'pending' | 'done' | null;
}

export type Availability = { ok: true } | { ok: false; reason: string };

export type PageImageLoader = (manualId: string, page: number, opts?: { signal?: AbortSignal }) => Promise<Buffer>;

/**
 * Models, storage and settings a turn uses, built by the caller of the loop (lib/services/agent-services.ts);
 * models are resolved lazily, once per turn. Getters reject with a readable message when the role is not
 * configured, which availability turns into a reason for the decider.
 */
export interface AgentServices {
  embedder(): Promise<Embedder>;
  multiVectorEmbedder(): Promise<MultiVectorEmbedder>;
  vectorStore(): Promise<VectorStore>;
  llm(): Promise<LlmClient | null>;
  vlm(): Promise<LlmClient | null>;
  /** The cross-encoder reranker, or null with the reason none can be had. */
  reranker(): Promise<{ reranker: Reranker | null; reason?: string }>;
  /** PNG bytes of a rendered manual page; null when nothing can render pages. */
  pageImage: PageImageLoader | null;
  manualTitle(manualId: string): Promise<string | undefined>;
  /** The library's index of pages, passages and manual identities (lib/ranking): ready manuals only. */
  libraryIndex(): Promise<LibraryIndex>;
  /** Manuals still being processed (queued … indexing), with their progress: the index does not hold them yet. */
  pendingManuals(): Promise<PendingManual[]>;
  /** The structure units (tables, procedures, labelled values, code lists) on these pages, in reading order. */
  pageUnits(pages: ReadonlyArray<{ manualId: string; page: number }>): Promise<PageUnit[]>;
  /** Which decider picks the tools when the turn's options do not say. */
  decider: DeciderProvider;
  /** The ranking model and the reply policies this turn applies (./policies.ts). */
  policies: TurnPolicies;
}

export interface ToolContext extends AgentServices {
  /** Aborted on cancellation and on the tool's deadline; pass it to every provider call. */
  signal: AbortSignal;
  /** Token accounting for the turn's metrics. */
  recordUsage(usage: LanguageModelUsage | undefined): void;
}

/** Who picked a tool: the LLM, the rules matrix, a matched skill, the budget, or a runIf trigger. */
export type DeciderKind = 'rules' | 'llm' | 'skill' | 'forced' | 'auto';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A tool failure the next decision sees (self-healing feedback). */
interface ToolErrorRecord {
  tool: string;
  message: string;
  suggestion?: string;
  recoverable: boolean;
  iteration: number;
}

export interface DecisionRecord {
  iteration: number;
  tool: string;
  decider: DeciderKind;
  reason: string;
  outcome?: 'ok' | 'error';
}

/**
 * The state of one turn that tools and deciders read. The loop owns it and is the only writer;
 * tools return outputs and the loop folds them in.
 */
export interface TreeData {
  question: string;
  history: ChatTurn[];
  /** Manual scope of the turn; undefined = every manual. */
  manualIds?: string[];
  /** Manuals whose pages the final ranking puts first (a named device, policy 'first' of ./device-context.ts). */
  preferManualIds?: string[];
  /** The question itself names the turn's device (not only the chat's device or a pick). */
  deviceNamed?: boolean;
  environment: Environment;
  errors: ToolErrorRecord[];
  /** 0-based index of the decision being made. */
  iteration: number;
  /** Maximum number of decisions; the last one is a forced text_response. */
  budget: number;
  decisions: DecisionRecord[];
  /** The workflow template matched to the question, if any. */
  skill: Skill | null;
  services: AgentServices;
  /** Tools taken out of this turn, with the reason shown to the decider. */
  removed: Record<string, string>;
  /**
   * No device is set for this turn (none picked, named or kept by the chat) and the library holds
   * several: the reply may ask which one (lib/answer/clarify.ts). `among`: the manuals an ambiguous
   * name matched, when it matched several devices.
   */
  openDevice?: { among?: string[] };
  /** The library index the turn read (once per turn); absent when it could not be read. */
  library?: LibraryIndex;
}

/**
 * How a tool appears in the trail. Turns carry it in their turn_start event, so the browser and
 * stored sessions show a tool without importing its (server-only) code.
 */
interface ToolDisplay {
  /** The technical view's label. */
  label: string;
  /** An icon of components/ui/icons.tsx. */
  icon: string;
  /** Plain wording (lib/chat/plain-trail.ts): after it ran, while it runs, and as a subject ("… did not work"). */
  done: string;
  running: string;
  noun: string;
}

/** What the offline decider (./decision/rules.ts) reads a question as; it orders the searches per kind. */
export type QuestionKind = 'visual' | 'table' | 'factual' | 'general';

export interface Tool<I = unknown> {
  /** snake_case and stable: it is stored in sessions and shown to the decider. */
  name: string;
  display: ToolDisplay;
  /** What it is best for; the decision prompt shows it. */
  description: string;
  /** Default status line shown when the tool starts. */
  status: string;
  /** Validated before run; defaults live here. */
  inputs: z.ZodType<I>;
  /** An end tool (text_response) finishes the turn. */
  end?: boolean;
  /** Per-tool deadline; the loop's default applies otherwise. */
  timeoutMs?: number;
  availability(t: TreeData): Promise<Availability>;
  /**
   * The input the offline decider, a skill step or the budget passes; `query` is the turn's search
   * query (a terse follow-up joined to the previous question). Absent: {} (the schema's defaults).
   */
  defaultInput?(t: TreeData, query: string): Record<string, unknown>;
  /** A search the offline decider may pick: its place per question kind, lower first. */
  searchOrder?: Record<QuestionKind, number>;
  /** Reads a page a search found (the vision model): the offline decider picks it for visual questions. */
  readsPages?: boolean;
  /** Auto-trigger: returns input to run now, bypassing the decision; null to stay quiet. */
  runIf?(t: TreeData): Promise<I | null>;
  run(t: TreeData, input: I, ctx: ToolContext): AsyncGenerator<ToolOutput>;
}

// Tools are stored side by side in the registry; their input types differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

/** A tool's display as a turn carries it (its turn_start event); `end`: the tool that writes the answer. */
export type ShownTool = ToolDisplay & { end?: boolean };

export const shownTools = (tools: readonly AnyTool[]): Record<string, ShownTool> =>
  Object.fromEntries(tools.map((t) => [t.name, t.end ? { ...t.display, end: true } : t.display]));

/** A page offered in the `pages` form (and, on request, with `not_covered`): what its card shows. */
export type ClosestPage = PageCard;

export const pagePreviewUrl = (manualId: string, page: number) => pageImageLink(manualId, page, 'image');
export const pageThumbnailUrl = (manualId: string, page: number) => pageImageLink(manualId, page, 'thumb');

/** Runs an availability probe that may throw (e.g. a provider that is not configured). */
export async function probe(reasonPrefix: string, check: () => Promise<unknown>): Promise<Availability> {
  try {
    await check();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `${reasonPrefix}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
