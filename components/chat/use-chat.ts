'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { cancelTurn, rateTurn } from '@/app/actions/chat';
import { LineDecoder, type StreamLine } from '@/lib/chat/protocol';
import { applyEvent, emptyTurn, fromStored, type StoredTurn, type TurnView } from '@/lib/chat/view';

export type Scope = 'all' | string[];

export interface StartedInfo {
  sessionId: string;
  title: string;
  createdSession: boolean;
}

/** After Stop, how long the server gets to end the turn cleanly before the request is dropped. */
const STOP_GRACE_MS = 2500;
/**
 * A turn shows as working for at least this long, so a fast (warm, offline) answer does not flash
 * from question to finished: the trail is seen being built. Only the final status waits.
 */
const MIN_WORKING_MS = 700;

let pendingCounter = 0;
const pendingId = () => `pending-${Date.now().toString(36)}-${(pendingCounter++).toString(36)}`;

/**
 * The conversation state of one chat and the streaming client: POSTs a question to /api/chat,
 * reads NDJSON lines and folds each agent event into the turn as it arrives.
 *
 * Stop: asks the server to abort the turn (cancel action, so the stream still delivers the
 * partial answer and the final 'cancelled' status), and aborts the fetch if the stream has not
 * ended shortly after — which aborts the server's request signal, and with it the agent loop.
 */
export function useChat({
  sessionId,
  initialTurns,
  onStarted,
}: {
  sessionId: string;
  initialTurns: StoredTurn[];
  onStarted?: (info: StartedInfo) => void;
}) {
  const [turns, setTurns] = useState<TurnView[]>(() => initialTurns.map(fromStored));
  const [sending, setSending] = useState(false);
  const turnsRef = useRef(turns);
  const request = useRef<AbortController | null>(null);
  const messageId = useRef<string | null>(null);
  const stopRequested = useRef(false);
  const stopTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onStartedRef = useRef(onStarted);

  useEffect(() => {
    turnsRef.current = turns;
    onStartedRef.current = onStarted;
  });

  // Leaving the page (or the chat) drops the request; the server sees it and stops the loop.
  useEffect(() => () => request.current?.abort(), []);

  const update = useCallback((id: string, fn: (t: TurnView) => TurnView) => {
    setTurns((ts) => ts.map((t) => (t.id === id ? fn(t) : t)));
  }, []);

  const run = useCallback(
    async (body: { question?: string; retryOf?: string }, question: string, scope: Scope) => {
      if (request.current) return;
      let currentId = pendingId();
      const startedAt = performance.now();
      let finalStatus: TurnView['status'] | null = null;
      const replaceId = body.retryOf;
      setTurns((ts) => [...ts.filter((t) => t.id !== replaceId), emptyTurn(currentId, question)]);
      const controller = new AbortController();
      request.current = controller;
      messageId.current = null;
      stopRequested.current = false;
      setSending(true);

      const handle = (line: StreamLine) => {
        if (line.kind === 'start') {
          const from = currentId;
          currentId = line.messageId;
          messageId.current = line.messageId;
          update(from, (t) => ({ ...t, id: line.messageId }));
          onStartedRef.current?.({ sessionId: line.sessionId, title: line.title, createdSession: line.createdSession });
          if (stopRequested.current) void cancelTurn({ messageId: line.messageId });
        } else if (line.kind === 'event') {
          const event = line.event;
          if (event.type === 'done') finalStatus = event.status;
          // The final status is applied after the loop (see MIN_WORKING_MS).
          update(currentId, (t) => (event.type === 'done' ? { ...applyEvent(t, event), status: t.status } : applyEvent(t, event)));
        } else if (line.kind === 'fail') {
          update(currentId, (t) => ({ ...t, status: 'failed', clientError: line.message }));
        } else if (line.kind === 'end') {
          finalStatus = line.status;
        }
      };

      try {
        const debugDelayMs = (window as unknown as { __mcDebugDelayMs?: unknown }).__mcDebugDelayMs;
        const res = await fetch('/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sessionId, scope, ...body, ...(typeof debugDelayMs === 'number' ? { debugDelayMs } : {}) }),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const err = (await res.json().catch(() => ({}))) as { error?: string };
          update(currentId, (t) => ({ ...t, status: 'failed', clientError: err.error ?? `The server answered with an error (HTTP ${res.status}).` }));
          return;
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const lines = new LineDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          for (const line of done ? lines.flush() : lines.push(value)) handle(line);
          if (done) break;
        }
        const wait = MIN_WORKING_MS - (performance.now() - startedAt);
        if (wait > 0 && !stopRequested.current) await new Promise((r) => setTimeout(r, wait));
        const status = finalStatus;
        if (status) update(currentId, (t) => ({ ...t, status }));
      } catch (err) {
        const aborted = controller.signal.aborted || (err instanceof DOMException && err.name === 'AbortError');
        update(currentId, (t) =>
          t.status !== 'running'
            ? t
            : aborted
              ? { ...t, status: 'cancelled' }
              : { ...t, status: 'failed', clientError: 'The connection to the server was lost. Retry to ask again.' },
        );
      } finally {
        if (stopTimer.current) clearTimeout(stopTimer.current);
        stopTimer.current = null;
        // A stream that ended without its final line: the server went away mid-turn.
        update(currentId, (t) => (t.status === 'running' ? { ...t, status: stopRequested.current ? 'cancelled' : 'failed' } : t));
        request.current = null;
        messageId.current = null;
        setSending(false);
      }
    },
    [sessionId, update],
  );

  const send = useCallback((question: string, scope: Scope) => run({ question }, question, scope), [run]);

  const retry = useCallback(
    (id: string, scope: Scope) => {
      const turn = turnsRef.current.find((t) => t.id === id);
      if (!turn) return;
      // A turn the server never stored (refused or lost before it started) is simply asked again.
      if (id.startsWith('pending-')) {
        setTurns((ts) => ts.filter((t) => t.id !== id));
        return run({ question: turn.question }, turn.question, scope);
      }
      return run({ retryOf: id }, turn.question, scope);
    },
    [run],
  );

  const stop = useCallback(() => {
    const controller = request.current;
    if (!controller || stopRequested.current) return;
    stopRequested.current = true;
    const id = messageId.current;
    if (id) {
      void cancelTurn({ messageId: id }).then((r) => {
        if (!r.ok) controller.abort();
      });
      stopTimer.current = setTimeout(() => controller.abort(), STOP_GRACE_MS);
    } else {
      controller.abort();
    }
  }, []);

  const rate = useCallback(
    async (id: string, rating: 1 | -1 | null) => {
      const before = turnsRef.current.find((t) => t.id === id)?.rating ?? null;
      update(id, (t) => ({ ...t, rating }));
      const result = await rateTurn({ messageId: id, rating });
      if (!result.ok) update(id, (t) => ({ ...t, rating: before }));
    },
    [update],
  );

  return { turns, sending, send, retry, stop, rate };
}
