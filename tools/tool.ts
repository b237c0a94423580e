/**
 * The tool contract (DESIGN §2). A tool is a small object the decision loop can list (with its
 * availability and the reason when it is not available), validate input for (zod, defaults in
 * the schema), auto-trigger (runIf) and run. Running yields a discriminated union of outputs —
 * status, result, error, response — that the loop folds into the environment and the UI renders.
 */
import type { LanguageModelUsage } from 'ai';
import type { z } from 'zod';
import type { TreeData } from '@/lib/agent/tree-data';
import type { BBox, Embedder, LlmClient, MultiVectorEmbedder, VectorStore } from '@/lib/providers/types';

/** A passage of a manual page, as found by a text search. */
export interface ChunkObject {
  kind: 'chunk';
  manualId: string;
  manualTitle?: string;
  page: number;
  chunkId: string;
  heading: string;
  text: string;
  ocr: boolean;
  bboxes: BBox[];
  score: number;
  /** Set when the multi-vector page search also found this page (hybrid merge). */
  visualScore?: number;
  previewUrl?: string;
  thumbnailUrl?: string;
}

/** A whole page, as found by the multi-vector (ColQwen-style) search or read by the VLM. */
export interface PageObject {
  kind: 'page';
  manualId: string;
  manualTitle?: string;
  page: number;
  score: number;
  previewUrl: string;
  thumbnailUrl: string;
  /** Page text worth citing: the best passages on the page, or the VLM's reading of it. */
  text?: string;
  /** Best-matching chunk on the page, so a citation can still highlight something. */
  chunkId?: string;
  heading?: string;
  bboxes?: BBox[];
  /** How the text was obtained, e.g. "vlm" for a visual interpretation. */
  textSource?: 'passages' | 'vlm';
}

export type Hit = ChunkObject | PageObject;

/** A hit once it is in the environment: `ref` is the [n] the answer cites. */
export type RefHit = Hit & { ref: number };

/** What a citation [n] points at, for the viewer to open and highlight. */
export interface Source {
  ref: number;
  kind: 'chunk' | 'page';
  manualId: string;
  manualTitle?: string;
  page: number;
  chunkId?: string;
  heading?: string;
  snippet: string;
  bboxes?: BBox[];
  previewUrl?: string;
}

export type ToolOutput =
  | { type: 'status'; message: string }
  | {
      type: 'result';
      /** Key under the tool in the environment (tool → result name). */
      name: string;
      objects: Hit[];
      metadata: Record<string, unknown>;
      /** One or two sentences for the decider about what was found. */
      llmMessage: string;
      /** Ask the loop to shrink the environment's passages after a summary (see summarize). */
      compactEnvironment?: { maxCharsPerHit: number };
    }
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
      metadata?: Record<string, unknown>;
    };

export type Availability = { ok: true } | { ok: false; reason: string };

export type PageImageLoader = (manualId: string, page: number, opts?: { signal?: AbortSignal }) => Promise<Buffer>;

/**
 * Models and storage, resolved lazily once per turn. Getters reject with a readable message when
 * the role is not configured, which availability turns into a reason for the decider.
 */
export interface Providers {
  embedder(): Promise<Embedder>;
  multiVectorEmbedder(): Promise<MultiVectorEmbedder>;
  vectorStore(): Promise<VectorStore>;
  llm(): Promise<LlmClient | null>;
  vlm(): Promise<LlmClient | null>;
  /** PNG bytes of a rendered manual page; null when nothing can render pages. */
  pageImage: PageImageLoader | null;
  manualTitle(manualId: string): Promise<string | undefined>;
}

export interface ToolContext extends Providers {
  /** Aborted on cancellation and on the tool's deadline; pass it to every provider call. */
  signal: AbortSignal;
  /** Token accounting for the turn's metrics. */
  recordUsage(usage: LanguageModelUsage | undefined): void;
}

export interface Tool<I = unknown> {
  /** snake_case and stable: it is stored in sessions and shown to the decider. */
  name: string;
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
  /** Auto-trigger: returns input to run now, bypassing the decision; null to stay quiet. */
  runIf?(t: TreeData): Promise<I | null>;
  run(t: TreeData, input: I, ctx: ToolContext): AsyncGenerator<ToolOutput>;
}

// Tools are stored side by side in the registry; their input types differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

export const pagePreviewUrl = (manualId: string, page: number) => `/manuals/${encodeURIComponent(manualId)}/pages/${page}/image`;
export const pageThumbnailUrl = (manualId: string, page: number) => `/manuals/${encodeURIComponent(manualId)}/pages/${page}/thumb`;

/** Runs an availability probe that may throw (e.g. a provider that is not configured). */
export async function probe(reasonPrefix: string, check: () => Promise<unknown>): Promise<Availability> {
  try {
    await check();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `${reasonPrefix}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The built-in tool names (stable: stored in sessions and matched by skills). */
export const TOOL = {
  fastVector: 'fast_vector_search',
  colqwen: 'colqwen_search',
  hybrid: 'hybrid_search',
  visual: 'visual_interpretation',
  summarize: 'summarize',
  textResponse: 'text_response',
} as const;
