/**
 * The streamed event union of a turn. The chat UI renders it live and the sessions DB stores the
 * array as JSON, so every event is plain JSON (no classes, Dates, typed arrays or Maps) and
 * carries `t`: milliseconds since the turn started.
 */
import type { AnswerEvidence } from '@/lib/answer/decide';
import type { AnswerMode } from '@/lib/answer/form';
import type { DeviceChoice } from '@/lib/answer/clarify';
import type { AnswerMethod, ClosestPage, DeciderKind, EventHit, ProcessingManual, ShownTool, Source, TopicTerms } from './contract';
import type { DeviceContext } from './device-context';
import type { UnsupportedSentence } from '@/lib/answer/check';

export type { DeciderKind, DeviceContext, EventHit, ShownTool, UnsupportedSentence };

/** A citation target as streamed and stored: the tools' Source, unchanged (plain JSON). */
export type EventSource = Source;

/**
 * The three forms of a reply: `answer`, a checked answer quoted from the manual of the
 * asked device; `pages`, the closest pages, honestly labelled, when the evidence does not hold the
 * answer; `not_covered`, no ready manual covers the asked device (or its manual is still processing).
 * Decided by lib/answer/form.ts; a ClosestPage is what a `pages` card shows (./contract.ts).
 */
export type { AnswerMode, ClosestPage, DeviceChoice };

export type ToolOutcome = 'ok' | 'error' | 'invalid_input' | 'timeout' | 'cancelled';

/** One tool call as the audit interceptor saw it. */
export interface AuditRecord {
  tool: string;
  inputs: unknown;
  ms: number;
  outcome: ToolOutcome;
  message?: string;
  /** Objects returned (after the size guard). */
  objects: number;
  /** True when the size guard cut objects or text. */
  truncated?: boolean;
}

export interface TurnMetrics {
  total_ms: number;
  /** Time until the first response_delta (or response), when there was one. */
  first_response_ms: number | null;
  iterations: number;
  tools: Record<string, { calls: number; ms: number; errors: number }>;
  tokens: { input: number; output: number; total: number } | null;
  decisions: Array<{ iteration: number; tool: string; decider: DeciderKind; ms: number }>;
  /** Tools in the order they ran. */
  path: string[];
  audit: AuditRecord[];
}

type Timed<E> = E & { t: number };

export type AgentEvent = Timed<
  | {
      type: 'turn_start';
      question: string;
      /** How the question was read, when it was read as a follow-up of the previous turn (lib/agent/follow-up.ts `shown`). */
      resolved?: string;
      manualIds: string[] | null;
      budget: number;
      decider: 'rules' | 'llm';
      /** How the turn's tools appear in the trail (absent in older sessions). */
      tools?: Record<string, ShownTool>;
    }
  | {
      /** Which manuals the turn searches and why (./device-context.ts); `device` is the chat's device context after it. */
      type: 'scope';
      /** The search filter; null = every manual. */
      manualIds: string[] | null;
      /** Manuals whose pages the ranking puts first (a named device, the chat's device). */
      first?: string[];
      reason: string;
      device: DeviceContext | null;
      /** The manuals an ambiguous device name matched. */
      ambiguous?: string[];
    }
  | { type: 'skill'; name: string; score: number; tools: string[]; description: string }
  | {
      type: 'decision';
      iteration: number;
      tool: string;
      reason: string;
      decider: DeciderKind;
      inputs: unknown;
      confidence?: number;
      available: string[];
      unavailable: Array<{ tool: string; reason: string }>;
    }
  | { type: 'status'; tool: string; message: string }
  | {
      type: 'result';
      tool: string;
      name: string;
      refs: number[];
      hits: EventHit[];
      metadata: Record<string, unknown>;
      /** Question terms that name each manual's device (hybrid_search). */
      topic_terms?: TopicTerms;
      count: number;
      time_ms: number;
    }
  | {
      type: 'error';
      tool: string;
      message: string;
      recoverable: boolean;
      suggestion?: string;
      time_ms?: number;
      /** The tool was taken out of the rest of the turn. */
      removed?: boolean;
    }
  | {
      type: 'response_delta';
      delta: string;
      /** Discard the deltas received so far: the answer restarts (e.g. extractive after an LLM failure). */
      reset?: boolean;
    }
  | {
      type: 'response';
      text: string;
      sources: EventSource[];
      /** The answer says the manuals do not cover the question. */
      declined?: boolean;
      /** How the answer was written; 'extractive' with fallback_reason when the LLM failed. */
      method?: AnswerMethod;
      fallback_reason?: string;
      /** Offline answers: the evidence the decision to answer or decline was based on. */
      evidence?: AnswerEvidence;
      /** Which of the three forms this reply takes; absent in turns stored before forms existed (read as `answer`, or `not_covered` when declined). */
      mode?: AnswerMode;
      /** With `pages` (and `not_covered`, shown on request): the closest pages, best first, at most 3. */
      pages?: ClosestPage[];
      /** `clarify` ("Which device?"): the candidate devices, most likely first, each with its best page. */
      choices?: DeviceChoice[];
      /** The top device's share of the closest pages, when no device was set and the library holds several. */
      device_share?: number;
      /** Manuals searched while still processing (their ready pages only): the trail says so. */
      processing?: ProcessingManual[];
      /** Cut short by cancellation. */
      partial?: boolean;
      time_ms?: number;
    }
  | {
      type: 'check';
      method: 'llm' | 'lexical';
      checked: number;
      unsupported: UnsupportedSentence[];
      /** Value lock: the answer's values (numbers with units, part numbers, codes) and those no cited passage contains. */
      values?: { checked: number; unverified: Array<{ value: string; sentence: number }> };
    }
  | ({ type: 'metrics' } & TurnMetrics)
  | { type: 'done'; status: 'done' | 'cancelled' | 'failed' }
>;

export type AgentEventType = AgentEvent['type'];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
