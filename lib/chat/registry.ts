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
  /** Settles when the turn is unregistered (its loop ended and its state is saved). */
  ended: Promise<void>;
}

// On globalThis so dev reloads of this module still see the turns started before the reload.
const state = globalThis as unknown as { __mcActiveTurns?: Map<string, ActiveTurn> };
const turns = (state.__mcActiveTurns ??= new Map());
const endings = new WeakMap<ActiveTurn, () => void>();

export function registerTurn(turn: Omit<ActiveTurn, 'controller' | 'startedAt' | 'ended'>): ActiveTurn {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const active: ActiveTurn = { ...turn, controller: new AbortController(), startedAt: Date.now(), ended };
  endings.set(active, end);
  turns.set(turn.messageId, active);
  return active;
}

export function unregisterTurn(messageId: string): void {
  const t = turns.get(messageId);
  turns.delete(messageId);
  if (t) endings.get(t)?.();
}

/**
 * Waits (up to `ms`) for the session's stopped turns to finish: a question asked right after Stop
 * must not be refused as busy while the stopped loop is still saving. Running turns are not waited for.
 */
export async function settleStoppedTurns(sessionId: string, ms = 3000): Promise<void> {
  const stopped = [...turns.values()].filter((t) => t.sessionId === sessionId && t.controller.signal.aborted);
  if (!stopped.length) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(stopped.map((t) => t.ended)), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
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
