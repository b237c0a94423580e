/** The agent's public surface: lib/chat/turn.ts, the eval and the bench use only these (plus tools/index.ts's registry). */
export { collectTurn, DEFAULT_BUDGET, DEFAULT_TOOL_TIMEOUT_MS, runTurn, type RunTurnInput, type RunTurnOptions } from './tree';
export type { AgentServices, AnyTool, ChatTurn } from './contract';
export type * from './events';
