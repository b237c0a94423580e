/**
 * TreeData: the state of one turn that tools and deciders read. The loop owns it and is the only
 * writer; tools return outputs and the loop folds them in.
 */
import type { Providers } from '@/tools/tool';
import type { Skill } from './decision/skills';
import type { Environment } from './environment';
import type { DeciderKind } from './events';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A tool failure the next decision sees (self-healing feedback). */
export interface ToolErrorRecord {
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

export interface TreeData {
  question: string;
  history: ChatTurn[];
  /** Manual scope of the turn; undefined = every manual. */
  manualIds?: string[];
  environment: Environment;
  errors: ToolErrorRecord[];
  /** 0-based index of the decision being made. */
  iteration: number;
  /** Maximum number of decisions; the last one is a forced text_response. */
  budget: number;
  decisions: DecisionRecord[];
  /** The workflow template matched to the question, if any. */
  skill: Skill | null;
  providers: Providers;
  /** Tools taken out of this turn, with the reason shown to the decider. */
  removed: Record<string, string>;
}
