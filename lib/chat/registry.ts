/**
 * Turns running in this process, by message id, each with the AbortController whose signal the
 * agent loop receives. Stop (the cancel action), the client going away (request.signal) and a
 * cancelled response stream all end up calling abort() here.
 */
import 'server-only';

export interface ActiveTurn {
  messageId: string;
  sessionId: string;
  ownerId: string;
  controller: AbortController;
  startedAt: number;
}

// On globalThis so dev reloads of this module still see the turns started before the reload.
const state = globalThis as unknown as { __mcActiveTurns?: Map<string, ActiveTurn> };
const turns = (state.__mcActiveTurns ??= new Map());

export function registerTurn(turn: Omit<ActiveTurn, 'controller' | 'startedAt'>): ActiveTurn {
  const active: ActiveTurn = { ...turn, controller: new AbortController(), startedAt: Date.now() };
  turns.set(turn.messageId, active);
  return active;
}

export function unregisterTurn(messageId: string): void {
  turns.delete(messageId);
}

export function activeTurn(messageId: string): ActiveTurn | undefined {
  return turns.get(messageId);
}

export function isSessionBusy(sessionId: string): boolean {
  for (const t of turns.values()) if (t.sessionId === sessionId) return true;
  return false;
}

/** Aborts a turn if `ownerId` owns it. Returns whether one was aborted. */
export function abortTurn(messageId: string, ownerId: string, reason = 'stopped by the user'): boolean {
  const t = turns.get(messageId);
  if (!t || t.ownerId !== ownerId) return false;
  if (!t.controller.signal.aborted) t.controller.abort(new DOMException(reason, 'AbortError'));
  return true;
}
