/** The agent's public surface: app/actions/ask.ts, the eval and the bench use only these. */
export { collectTurn, DEFAULT_BUDGET, DEFAULT_TOOL_TIMEOUT_MS, runTurn, type RunTurnInput, type RunTurnOptions } from './tree';
export type { AgentDeps } from './providers';
export type { ChatTurn } from './tree-data';
export type * from './events';
