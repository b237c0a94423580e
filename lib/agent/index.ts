/** The agent's public surface: lib/chat/turn.ts, the eval and the bench use only these (plus tools/index.ts's registry). */
export { runTurn, type RunTurnInput, type RunTurnOptions } from './tree';
export type { AnyTool } from './contract';
export { historyOf } from './follow-up';
export type { DeviceContext, NamedDevicePolicy } from './device-context';
export type { TurnPolicies } from './policies';
export type * from './events';
