import type { LanguageModelUsage } from 'ai';
import type { AnyTool, Availability } from '@/lib/agent/contract';
import type { DeciderKind } from '../events';
import type { TreeData } from '../contract';

/** A tool as the decider sees it: listed even when unavailable, with the reason. */
export interface ToolOption {
  tool: AnyTool;
  availability: Availability;
}

export interface DecisionContext {
  tree: TreeData;
  options: ToolOption[];
  signal: AbortSignal;
  recordUsage(usage: LanguageModelUsage | undefined): void;
}

export interface Decision {
  tool: string;
  /** Raw inputs; the validation interceptor applies the tool's schema and defaults. */
  input: unknown;
  reason: string;
  decider: DeciderKind;
  /** 0..1, how sure the rules matrix is; gates the LLM fast path. */
  confidence?: number;
}

export interface Decider {
  readonly kind: 'rules' | 'llm';
  decide(ctx: DecisionContext): Promise<Decision>;
}

export const availableNames = (options: ToolOption[]) => options.filter((o) => o.availability.ok).map((o) => o.tool.name);
