/**
 * One turn of the agent (the README's Architecture section): build TreeData → run auto-triggers → list tools with
 * availability → decide → run the tool through the interceptors → fold outputs into the
 * environment → repeat until the end tool runs or the budget forces it. Everything the turn does
 * is streamed as AgentEvents; errors become feedback for the next decision, not exceptions.
 */
import type { LanguageModelUsage } from 'ai';
import { shownTools, type AgentServices, type AnyTool, type RefHit, type ToolContext } from '@/lib/agent/contract';
import { numberCitations, renumberText, StreamedCitations } from '@/lib/answer/citations';
import { checkValues } from '@/lib/answer/values';
import { namedDevice, namedKind } from '@/lib/ranking/named-device';
import { deviceKey } from '@/lib/device/identity';
import type { LibraryIndex } from '@/lib/ranking/library-index';
import { resolveFollowUp } from './follow-up';
import { chooseScope, type DeviceContext, type TurnScope } from './device-context';
import { checkAnswer, withUnverifiedValues } from '@/lib/answer/check';
import { createLlmDecider, DEFAULT_FAST_PATH_CONFIDENCE } from './decision/llm';
import { decideByRules, defaultInputFor, rulesDecider } from './decision/rules';
import { loadSkills, matchSkill, type Skill } from './decision/skills';
import type { Decider, Decision, ToolOption } from './decision/types';
import { Environment, hitPlace } from './environment';
import type { AgentEvent, AuditRecord, EventHit, EventSource, TurnMetrics } from './events';
import { abortable } from '@/lib/runtime/abort';
import { chain, defaultInterceptors } from './interceptors';
import { truncate } from '@/lib/text/format';
import type { ChatTurn, DecisionRecord, TreeData } from './contract';

const DEFAULT_BUDGET = 5;
const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** A tool that fails this many times in a turn is taken out of it. */
const MAX_FAILURES = 2;

export interface RunTurnOptions {
  /** Maximum decisions; the last is a forced text_response. Default 5. */
  budget?: number;
  /** Default: the services' decider. */
  decider?: 'rules' | 'llm';
  /** Skills override; default: the markdown files in skills/. */
  skills?: Skill[];
  /** Deadline for tools that do not declare their own. */
  toolTimeoutMs?: number;
  /** Rules confidence that skips the LLM decision call. */
  fastPathConfidence?: number;
  /** Check answer sentences against their sources (default true). */
  checkAnswer?: boolean;
  now?: () => number;
}

export interface RunTurnInput {
  question: string;
  /** The tools the turn may use (tools/index.ts's defaultTools in the app); one must be the end tool. */
  tools: readonly AnyTool[];
  history?: ChatTurn[];
  /** Manual scope; omitted, empty or the whole library = every manual (then a named device or the chat's device context narrows it). */
  manualIds?: string[];
  /** The chat's device context before this turn (./device-context.ts). */
  device?: DeviceContext | null;
  /** This question's number in the chat (1 = first); default: the user turns of `history` + 1. */
  turn?: number;
  signal?: AbortSignal;
  /** Models, storage and settings of the turn (lib/services/agent-services.ts builds them). */
  services: AgentServices;
  options?: RunTurnOptions;
}

type EventBody = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 't'> : never) : never;

interface ResponseState {
  /** The text as the agent wrote it (its own reference numbers). */
  text: string;
  sources: EventSource[];
  declined: boolean;
  /** Agent reference → the number readers see (lib/answer/citations). */
  numbers: Map<number, number>;
}

export async function* runTurn(input: RunTurnInput): AsyncGenerator<AgentEvent> {
  const opts = input.options ?? {};
  const clock = opts.now ?? (() => performance.now());
  const t0 = clock();
  const at = () => Math.round(clock() - t0);
  const ev = (body: EventBody): AgentEvent => ({ ...body, t: at() }) as AgentEvent;
  const signal = input.signal ?? new AbortController().signal;
  const tools = input.tools;
  const endTool = tools.find((t) => t.end);
  const asked = input.question.trim();
  // A follow-up ("and the max current then?") is searched and answered with the previous turn's device and topic.
  const index = await input.services.libraryIndex().catch(() => null);
  const followUp = input.history?.some((t) => t.role === 'user') ? resolveFollowUp(asked, input.history, index?.identityWordsByDevice ?? new Map()) : undefined;
  const question = followUp?.search ?? asked;
  const scope = turnScope(asked, input, index);
  const deciderKind = opts.decider ?? input.services.decider;
  const decider: Decider =
    deciderKind === 'llm' ? createLlmDecider({ fastPathConfidence: opts.fastPathConfidence ?? DEFAULT_FAST_PATH_CONFIDENCE }) : rulesDecider;

  const tree: TreeData = {
    question,
    history: input.history ?? [],
    manualIds: scope?.manualIds ?? (input.manualIds?.length ? [...input.manualIds] : undefined),
    ...(scope?.preferManualIds ? { preferManualIds: scope.preferManualIds } : {}),
    ...(scope?.named ? { deviceNamed: true } : {}),
    environment: new Environment(),
    errors: [],
    iteration: 0,
    budget: Math.max(1, Math.min(20, Math.floor(opts.budget ?? DEFAULT_BUDGET))),
    decisions: [],
    skill: null,
    services: input.services,
    removed: {},
    ...(scope && index ? openDevice(scope, index) : {}),
    ...(index ? { library: index } : {}),
  };

  // Metrics state.
  const audit: AuditRecord[] = [];
  const toolStats: TurnMetrics['tools'] = {};
  const decisionTimes: TurnMetrics['decisions'] = [];
  const path: string[] = [];
  const failures: Record<string, number> = {};
  let tokens: TurnMetrics['tokens'] = null;
  let firstResponseAt: number | null = null;
  const recordUsage = (usage: LanguageModelUsage | undefined) => {
    if (!usage) return;
    tokens ??= { input: 0, output: 0, total: 0 };
    tokens.input += usage.inputTokens ?? 0;
    tokens.output += usage.outputTokens ?? 0;
    tokens.total += usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  };

  const runner = chain(defaultInterceptors({ audit, timeoutMs: opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, now: clock }));
  let response: ResponseState | null = null;
  let partialText = '';
  /** The streamed answer's citations, numbered as the final answer will be. */
  let streamed: StreamedCitations | undefined;
  let status: 'done' | 'cancelled' | 'failed' = 'done';

  /** Runs one tool call and folds its outputs in; yields the events. */
  async function* runOne(tool: AnyTool, toolInput: unknown, record: DecisionRecord): AsyncGenerator<AgentEvent> {
    const started = clock();
    const stats = (toolStats[tool.name] ??= { calls: 0, ms: 0, errors: 0 });
    stats.calls++;
    path.push(tool.name);
    yield ev({ type: 'status', tool: tool.name, message: tool.status });
    const ctx: ToolContext = { ...tree.services, signal, recordUsage };
    let failed = false;
    const fail = function (message: string, recoverable: boolean, suggestion?: string): AgentEvent {
      failed = true;
      stats.errors++;
      tree.errors.push({ tool: tool.name, message, suggestion, recoverable, iteration: tree.iteration });
      failures[tool.name] = (failures[tool.name] ?? 0) + 1;
      const removed = !recoverable || failures[tool.name] >= MAX_FAILURES;
      if (removed) {
        tree.removed[tool.name] = recoverable ? `failed twice this turn (last: ${truncate(message, 160)})` : `failed: ${truncate(message, 160)}`;
      }
      return ev({
        type: 'error',
        tool: tool.name,
        message,
        recoverable,
        ...(suggestion ? { suggestion } : {}),
        time_ms: Math.round(clock() - started),
        ...(removed ? { removed } : {}),
      });
    };
    try {
      for await (const out of runner({ tool, input: toolInput, tree, ctx })) {
        if (out.type === 'status') {
          yield ev({ type: 'status', tool: tool.name, message: out.message });
        } else if (out.type === 'result') {
          const refHits = tree.environment.add(tool.name, out, tree.iteration);
          if (out.compactEnvironment) tree.environment.applySummary(out.llmMessage, question, out.compactEnvironment.maxCharsPerHit);
          yield ev({
            type: 'result',
            tool: tool.name,
            name: out.name,
            refs: refHits.map((h) => h.ref),
            hits: refHits.map(toEventHit),
            metadata: out.metadata,
            ...(out.topicTerms ? { topic_terms: out.topicTerms } : {}),
            count: refHits.length,
            time_ms: Math.round(clock() - started),
          });
        } else if (out.type === 'error') {
          yield fail(out.message, out.recoverable, out.suggestion);
        } else if (out.delta !== undefined) {
          partialText = out.reset ? out.delta : partialText + out.delta;
          firstResponseAt ??= at();
          if (out.reset || !streamed) streamed = new StreamedCitations((ref) => tree.environment.hit(ref));
          yield ev({ type: 'response_delta', delta: streamed.push(out.delta), ...(out.reset ? { reset: true } : {}) });
        } else if (out.text !== undefined) {
          firstResponseAt ??= at();
          const rest = streamed?.flush();
          if (rest) yield ev({ type: 'response_delta', delta: rest });
          const declined = out.declined === true;
          // Numbered where the answer is finalised, so every reader (chat, store, API, MCP) gets
          // [1]..[n] by first use; the answer check below still reads the agent's own numbers.
          const numbered = numberCitations(out.text, out.sources ?? []);
          response = { text: out.text, sources: numbered.sources, declined, numbers: numbered.numbers };
          yield ev({
            type: 'response',
            text: numbered.text,
            sources: numbered.sources,
            ...(declined ? { declined } : {}),
            ...(out.method ? { method: out.method } : {}),
            ...(out.fallbackReason ? { fallback_reason: out.fallbackReason } : {}),
            ...(out.evidence ? { evidence: out.evidence } : {}),
            ...(out.mode ? { mode: out.mode } : {}),
            ...(out.pages?.length ? { pages: out.pages } : {}),
            ...(out.choices?.length ? { choices: out.choices } : {}),
            ...(out.deviceShare !== undefined ? { device_share: Math.round(out.deviceShare * 1000) / 1000 } : {}),
            ...(out.processing?.length ? { processing: out.processing } : {}),
            time_ms: Math.round(clock() - started),
          });
        }
      }
    } catch (err) {
      if (signal.aborted) throw err;
      // The interceptors already turn tool failures into outputs; this is a bug in the chain itself.
      yield fail(`${tool.name} crashed: ${err instanceof Error ? err.message : String(err)}`, true);
    } finally {
      stats.ms += Math.round(clock() - started);
      record.outcome = failed ? 'error' : 'ok';
    }
  }

  async function listOptions(): Promise<ToolOption[]> {
    return Promise.all(
      tools.map(async (tool): Promise<ToolOption> => {
        const removedReason = tree.removed[tool.name];
        if (removedReason) return { tool, availability: { ok: false, reason: removedReason } };
        try {
          return { tool, availability: await abortable(tool.availability(tree), signal) };
        } catch (err) {
          if (signal.aborted) throw err;
          return { tool, availability: { ok: false, reason: `availability check failed: ${err instanceof Error ? err.message : String(err)}` } };
        }
      }),
    );
  }

  /** The next tool the matched skill guarantees that has not been attempted yet. */
  function pendingSkillTool(options: ToolOption[]): AnyTool | undefined {
    if (!tree.skill) return undefined;
    for (const name of tree.skill.tools) {
      const option = options.find((o) => o.tool.name === name);
      if (!option || option.tool.end || !option.availability.ok) continue;
      const attempted = tree.environment.ran(name) || tree.errors.some((e) => e.tool === name);
      if (!attempted) return option.tool;
    }
    return undefined;
  }

  function decisionEvent(decision: Decision, options: ToolOption[]): AgentEvent {
    return ev({
      type: 'decision',
      iteration: tree.iteration,
      tool: decision.tool,
      reason: decision.reason,
      decider: decision.decider,
      inputs: decision.input ?? {},
      ...(decision.confidence !== undefined ? { confidence: decision.confidence } : {}),
      available: options.filter((o) => o.availability.ok).map((o) => o.tool.name),
      unavailable: options.flatMap((o) => (o.availability.ok ? [] : [{ tool: o.tool.name, reason: o.availability.reason }])),
    });
  }

  async function* runDecision(decision: Decision, options: ToolOption[], decideMs: number): AsyncGenerator<AgentEvent, AnyTool> {
    const tool = tools.find((t) => t.name === decision.tool)!;
    const record: DecisionRecord = { iteration: tree.iteration, tool: tool.name, decider: decision.decider, reason: decision.reason };
    tree.decisions.push(record);
    decisionTimes.push({ iteration: tree.iteration, tool: tool.name, decider: decision.decider, ms: decideMs });
    yield decisionEvent(decision, options);
    yield* runOne(tool, decision.input, record);
    return tool;
  }

  function forced(reason: string): Decision {
    return { tool: endTool!.name, input: defaultInputFor(endTool!, tree), decider: 'forced', reason };
  }

  yield ev({
    type: 'turn_start',
    question: asked,
    ...(followUp && followUp.search !== asked ? { resolved: followUp.shown } : {}),
    manualIds: tree.manualIds ?? null,
    budget: tree.budget,
    decider: deciderKind,
    tools: shownTools(tools),
  });
  if (scope) {
    const { manualIds, preferManualIds, reason, context, ambiguous } = scope;
    yield ev({
      type: 'scope',
      manualIds: manualIds ?? null,
      ...(preferManualIds ? { first: preferManualIds } : {}),
      reason,
      device: context,
      ...(ambiguous ? { ambiguous } : {}),
    });
  }

  try {
    if (!endTool) throw new Error('the tool registry has no end tool (text_response)');
    const match = matchSkill(question, opts.skills ?? loadSkills());
    if (match) {
      tree.skill = match.skill;
      yield ev({ type: 'skill', name: match.skill.name, score: match.score, tools: match.skill.tools, description: match.skill.description });
    }

    // The budget bounds decisions; the extra slack only lets a failing end tool be retried once.
    while (tree.iteration < tree.budget + MAX_FAILURES) {
      signal.throwIfAborted();

      for (const tool of tools) {
        if (!tool.runIf || tree.removed[tool.name]) continue;
        const autoInput = await abortable(tool.runIf(tree), signal);
        if (autoInput === null || autoInput === undefined) continue;
        const options = await listOptions();
        if (!options.find((o) => o.tool === tool)?.availability.ok) continue;
        const tokensNow = tree.environment.estimateTokens();
        yield* runDecision(
          { tool: tool.name, input: autoInput, decider: 'auto', reason: `auto-triggered: the environment holds ≈${tokensNow} tokens` },
          options,
          0,
        );
      }

      const options = await listOptions();
      const available = options.filter((o) => o.availability.ok);
      const atBudget = tree.iteration >= tree.budget - 1;
      const decideStart = clock();
      let decision: Decision;
      const skillTool = pendingSkillTool(options);
      if (tree.removed[endTool.name]) {
        status = 'failed';
        break;
      }
      if (atBudget) {
        decision = forced(`iteration budget reached (${tree.budget}): answering with what was found`);
      } else if (available.length === 0) {
        decision = forced('no other tool is available');
      } else if (skillTool) {
        decision = {
          tool: skillTool.name,
          input: defaultInputFor(skillTool, tree),
          decider: 'skill',
          reason: `skill "${tree.skill!.name}" guarantees ${skillTool.name}`,
        };
      } else {
        decision = await abortable(decider.decide({ tree, options, signal, recordUsage }), signal);
        if (!available.some((o) => o.tool.name === decision.tool)) {
          // A decider must only pick available tools; if one slips through, the rules pick instead.
          const rules = decideByRules({ tree, options, signal, recordUsage });
          decision = available.some((o) => o.tool.name === rules.tool)
            ? { ...rules, reason: `${decision.tool} is not available; rules: ${rules.reason}` }
            : forced(`${decision.tool} is not available and nothing else is`);
        }
      }
      const tool = yield* runDecision(decision, options, Math.round(clock() - decideStart));
      tree.iteration++;
      if (tool.end && response) break;
    }
    if (!response && status === 'done') status = 'failed';
  } catch (err) {
    if (signal.aborted) {
      status = 'cancelled';
    } else {
      status = 'failed';
      yield ev({ type: 'error', tool: 'agent', message: err instanceof Error ? err.message : String(err), recoverable: false });
    }
  }

  const finalResponse = response as ResponseState | null;
  if (status === 'cancelled' && !finalResponse && partialText) {
    // Keep what was already streamed: a stopped answer is still useful, and its citations resolve.
    const numbered = numberCitations(partialText, tree.environment.sourcesFor(partialText));
    yield ev({ type: 'response', text: numbered.text, sources: numbered.sources, partial: true });
  }

  if (status === 'done' && finalResponse && !finalResponse.declined && finalResponse.text && opts.checkAnswer !== false) {
    try {
      const texts = tree.environment.citableTexts();
      const llm = await abortable(
        tree.services.llm().catch(() => null),
        signal,
      );
      const check = await checkAnswer(finalResponse.text, texts, { llm, signal, recordUsage });
      const values = checkValues(finalResponse.text, texts, tree.environment.manualTitles());
      yield ev({
        type: 'check',
        method: check.method,
        checked: check.checked,
        unsupported: withUnverifiedValues(check.unsupported, values, finalResponse.text).map((u) =>
          !finalResponse.numbers.size
            ? u
            : {
                ...u,
                sentence: renumberText(u.sentence, finalResponse.numbers),
                refs: [...new Set(u.refs.flatMap((r) => finalResponse.numbers.get(r) ?? []))],
              },
        ),
        values: { checked: values.checked, unverified: values.unverified.map(({ value, sentence }) => ({ value, sentence })) },
      });
    } catch (err) {
      if (!signal.aborted) throw err;
      status = 'cancelled';
    }
  }

  yield ev({
    type: 'metrics',
    total_ms: at(),
    first_response_ms: firstResponseAt,
    iterations: tree.iteration,
    tools: toolStats,
    tokens,
    decisions: decisionTimes,
    path,
    audit,
  });
  yield ev({ type: 'done', status });
}

function toEventHit(h: RefHit): EventHit {
  return {
    ...hitPlace(h),
    ...(h.text ? { text: truncate(h.text, 600) } : {}),
    score: Math.round(h.score * 10000) / 10000,
    ...(h.previewUrl ? { previewUrl: h.previewUrl } : {}),
    ...(h.thumbnailUrl ? { thumbnailUrl: h.thumbnailUrl } : {}),
  };
}

/**
 * Whether the reply may ask which device (lib/answer/clarify.ts): nothing picked, named or kept by
 * the chat, and the library holds two or more devices (copies of one manual are one device).
 */
function openDevice(scope: TurnScope, index: LibraryIndex): Pick<TreeData, 'openDevice'> {
  if (scope.context || scope.manualIds?.length || scope.preferManualIds?.length) return {};
  if (new Set(index.manuals.map(deviceKey)).size < 2) return {};
  return { openDevice: scope.ambiguous ? { among: scope.ambiguous } : {} };
}

/**
 * The turn's scope: the user's pick, the device the question names, or the chat's device context
 * (./device-context.ts); undefined when the library cannot be read (the given scope stands).
 */
function turnScope(question: string, input: RunTurnInput, index: LibraryIndex | null): TurnScope | undefined {
  if (!index) return undefined;
  const library = index.manuals.map((m) => m.id);
  const picked = input.manualIds?.length && !library.every((id) => input.manualIds!.includes(id)) ? input.manualIds : undefined;
  const titles = new Map(index.manuals.map((m) => [m.id, m.title || m.fileName]));
  const named = namedDevice(question, index, picked);
  // No device named, none picked or kept: a generic reference ("the analyzer") may still tell it by kind.
  const byKind = !named.manualIds.length && !picked && !input.device ? namedKind(question, index) : undefined;
  return chooseScope({
    picked,
    named: byKind ?? named,
    context: input.device,
    turn: input.turn ?? (input.history ?? []).filter((t) => t.role === 'user').length + 1,
    titleOf: (id) => titles.get(id) ?? id,
    policy: input.services.policies.namedDevice,
  });
}
