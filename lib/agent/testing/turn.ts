/**
 * Test helpers for the agent: hit builders, small tools whose behaviour a test scripts,
 * and MockLanguageModelV3 wrappers (the only model double the tests use). Not used in production.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { z } from 'zod';
import type { LlmClient } from '@/lib/providers/types';
import type { AgentDeps } from '@/lib/services/agent-services';
import type { AgentEvent, AgentEventType, EventOf } from '../events';
import type { AnyTool, ChunkObject, PageObject, Tool, ToolOutput } from '@/lib/agent/contract';
import { pagePreviewUrl, pageThumbnailUrl, type TreeData } from '../contract';
import { Environment } from '../environment';
import { runTurn, type RunTurnInput } from '../tree';
import { defaultTools } from '@/tools';

let chunkSeq = 0;

export function chunk(text: string, over: Partial<ChunkObject> = {}): ChunkObject {
  chunkSeq++;
  return {
    kind: 'chunk',
    manualId: 'm1',
    page: 1,
    chunkId: `c${chunkSeq}`,
    heading: '',
    text,
    ocr: false,
    bboxes: [{ x: 10, y: 20, w: 100, h: 12 }],
    score: 0.5,
    ...over,
  };
}

export function page(manualId: string, n: number, over: Partial<PageObject> = {}): PageObject {
  return {
    kind: 'page',
    manualId,
    page: n,
    score: 0.7,
    previewUrl: pagePreviewUrl(manualId, n),
    thumbnailUrl: pageThumbnailUrl(manualId, n),
    ...over,
  };
}

/**
 * Policies for tests of the writer rather than of the operating point: quote when a span is found
 * and states the asked kind of quantity, whatever its coverage.
 */
export const WRITER_POLICIES = { form: { minCoverage: 0, requireAskedQuantity: true } } as const;

/** Deps for loop tests: no models, no page images, no store (scripted tools never touch them). */
export const offlineDeps: AgentDeps = { llm: null, vlm: null, pageImage: null, manualTitle: () => undefined };

export interface ScriptedToolSpec {
  name: string;
  description?: string;
  end?: boolean;
  timeoutMs?: number;
  inputs?: z.ZodType<unknown>;
  availability?: (t: TreeData) => Promise<{ ok: true } | { ok: false; reason: string }>;
  runIf?: (t: TreeData) => Promise<unknown>;
  /** How the offline decider and the trail see the tool; by default as the built-in tool of that name does. */
  offline?: Pick<AnyTool, 'display' | 'defaultInput' | 'searchOrder' | 'readsPages'>;
  /** Called once per run with the 1-based call number. */
  run: (call: number, t: TreeData, input: unknown, signal: AbortSignal) => AsyncGenerator<ToolOutput> | ToolOutput[] | Promise<ToolOutput[]>;
}

/** A tool whose outputs the test scripts; `calls` records every validated input. */
export function scriptedTool(spec: ScriptedToolSpec): AnyTool & { calls: unknown[] } {
  const calls: unknown[] = [];
  const builtIn = defaultTools.find((t) => t.name === spec.name);
  const display = { label: spec.name, icon: 'activity', done: `Ran ${spec.name}`, running: `Running ${spec.name}…`, noun: spec.name };
  const tool: Tool<unknown> & { calls: unknown[] } = {
    name: spec.name,
    display,
    ...(builtIn && { display: builtIn.display, defaultInput: builtIn.defaultInput, searchOrder: builtIn.searchOrder, readsPages: builtIn.readsPages }),
    ...spec.offline,
    description: spec.description ?? `test tool ${spec.name}`,
    status: `Running ${spec.name}…`,
    inputs: spec.inputs ?? z.object({ query: z.string().optional() }).passthrough(),
    end: spec.end,
    timeoutMs: spec.timeoutMs,
    availability: spec.availability ?? (async () => ({ ok: true })),
    ...(spec.runIf ? { runIf: spec.runIf } : {}),
    async *run(t, input, ctx) {
      calls.push(input);
      const out = spec.run(calls.length, t, input, ctx.signal);
      if (Symbol.asyncIterator in Object(out)) yield* out as AsyncGenerator<ToolOutput>;
      else yield* await (out as ToolOutput[] | Promise<ToolOutput[]>);
    },
    calls,
  };
  return tool;
}

export type ResultOutput = Extract<ToolOutput, { type: 'result' }>;

export const resultOf = (objects: Array<ChunkObject | PageObject>, name = 'passages'): ResultOutput => ({
  type: 'result',
  name,
  objects,
  metadata: { count: objects.length },
  llmMessage: `${objects.length} results`,
});

export function eventsOf<T extends AgentEventType>(events: AgentEvent[], type: T): Array<EventOf<T>> {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

export function textResult(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

export const jsonResult = (value: unknown) => textResult(JSON.stringify(value));

export function streamOf(text: string) {
  const pieces = text.match(/\S+\s*/g) ?? [];
  const chunks: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...pieces.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
  return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null, initialDelayInMs: null }) };
}

/**
 * An LlmClient around MockLanguageModelV3: `generate` answers doGenerate calls in order (the last
 * one repeats), `stream` answers doStream calls.
 */
export function mockLlm(opts: { generate?: LanguageModelV3GenerateResult[]; stream?: string[] } = {}) {
  let g = 0;
  let s = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const list = opts.generate ?? [];
      if (!list.length) throw new Error('mock: no generate result scripted');
      return list[Math.min(g++, list.length - 1)];
    },
    doStream: async () => {
      const list = opts.stream ?? [];
      if (!list.length) throw new Error('mock: no stream scripted');
      return streamOf(list[Math.min(s++, list.length - 1)]);
    },
  });
  const client: LlmClient = { provider: 'test', modelId: 'mock-model', model, vision: true };
  return { client, model };
}

/** The text of every prompt message of a mock call (to assert on what the model was shown). */
export function promptText(call: { prompt: Array<{ content: unknown }> }): string {
  return call.prompt
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content as Array<{ text?: string }>).map((p) => p.text ?? '').join(' ')))
    .join('\n');
}

/** A TreeData as a turn starts (nothing found yet, a budget of 5 steps); `over` sets any other field. */
export function startingTree(question: string, services: TreeData['services'], over: Partial<TreeData> = {}): TreeData {
  return {
    question,
    history: [],
    environment: new Environment(),
    errors: [],
    iteration: 0,
    budget: 5,
    decisions: [],
    skill: null,
    services,
    removed: {},
    ...over,
  };
}

/**
 * Runs one tool the way the loop does (validation with defaults, deadline, size guard) against a
 * fresh TreeData, folding results into its environment. For tool tests.
 */
export async function runToolOnce(
  tool: AnyTool,
  input: unknown,
  deps: AgentDeps,
  over: Partial<Pick<TreeData, 'question' | 'manualIds' | 'environment'>> = {},
) {
  const { chain, defaultInterceptors } = await import('../interceptors');
  const { agentServices } = await import('@/lib/services/agent-services');
  const providers = agentServices(deps);
  const tree = startingTree(over.question ?? 'test question', providers, { manualIds: over.manualIds, environment: over.environment ?? new Environment() });
  const outputs: ToolOutput[] = [];
  const audit: import('../events').AuditRecord[] = [];
  const runner = chain(defaultInterceptors({ audit, timeoutMs: 30_000 }));
  for await (const out of runner({ tool, input, tree, ctx: { ...providers, signal: new AbortController().signal, recordUsage: () => {} } })) {
    outputs.push(out);
    if (out.type === 'result') tree.environment.add(tool.name, out, 0);
  }
  const result = outputs.find((o): o is Extract<ToolOutput, { type: 'result' }> => o.type === 'result');
  const error = outputs.find((o): o is Extract<ToolOutput, { type: 'error' }> => o.type === 'error');
  return { outputs, result, error, tree, audit, availability: await tool.availability(tree) };
}

/** Collects a turn into an array. */
export async function collectTurn(input: RunTurnInput): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of runTurn(input)) events.push(e);
  return events;
}
