'use client';

import './zod-jitless';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { cancelTurn, rateTurn } from '@/actions/chat';
import { findSession } from '@/actions/sessions';
import { messageText, storedToMessages, turnFromMessages, type ChatUIMessage, type SessionStarted } from '@/lib/chat/protocol';
import type { StoredTurn, TurnStatus, TurnView } from '@/lib/chat/view';

export type Scope = 'all' | string[];

export type StartedInfo = Pick<SessionStarted, 'sessionId' | 'title' | 'createdSession'>;

/**
 * A turn shows as working for at least this long, so a fast (warm, offline) answer does not flash
 * from question to finished: the trail is seen being built. Only the final status waits.
 */
const MIN_WORKING_MS = 700;

/** What a refused request or a dropped connection says, for the turn it hit. */
function clientErrorOf(error: Error, answered: boolean): string {
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not our JSON error body: the network failed
  }
  return answered ? 'The connection to the server was lost. Retry to ask again.' : 'Could not reach the server. Retry to ask again.';
}

interface RequestBody {
  sessionId: string;
  scope: Scope;
  /** A device picked from a "Which device?" reply (a manual id). */
  device?: string;
}

/** The server keeps the history: a request carries only the new question (or the message to retry). */
const transport = new DefaultChatTransport<ChatUIMessage>({
  api: '/api/chat',
  prepareSendMessagesRequest: ({ messages, trigger, messageId, body }) => {
    const { sessionId, scope, device } = body as unknown as RequestBody;
    const retryOf = trigger === 'regenerate-message' && messageId && !messageId.startsWith('pending-') ? messageId : undefined;
    const last = messages.at(-1);
    const debugDelayMs = (window as unknown as { __mcDebugDelayMs?: unknown }).__mcDebugDelayMs;
    return {
      body: {
        sessionId,
        scope,
        ...(retryOf ? { retryOf } : { question: last ? messageText(last) : '' }),
        ...(device && !retryOf ? { device } : {}),
        ...(typeof debugDelayMs === 'number' ? { debugDelayMs } : {}),
      },
    };
  },
});

/**
 * One chat's conversation through the AI SDK's `useChat`: the persisted turns are its initial
 * messages, a question is `sendMessage`, Stop is `stop()` and retry is `regenerate()`. Each turn's view is folded from its messages by the shared reducer (lib/chat/protocol).
 */
export function useManualChat({
  sessionId,
  initialTurns,
  onStarted,
}: {
  sessionId: string;
  initialTurns: StoredTurn[];
  onStarted?: (info: StartedInfo) => void;
}) {
  const [initialMessages] = useState(() => initialTurns.flatMap(storedToMessages));
  const [ratings, setRatings] = useState<Record<string, 1 | -1 | null>>(() => Object.fromEntries(initialTurns.map((t) => [t.id, t.rating ?? null])));
  /** How the running turn ends if its stream stops without an end marker. */
  const [endedAs, setEndedAs] = useState<TurnStatus>('failed');
  const [held, setHeld] = useState(false);
  const liveMessageId = useRef<string | null>(null);
  const stopRequested = useRef(false);
  const onStartedRef = useRef(onStarted);
  useEffect(() => {
    onStartedRef.current = onStarted;
  });

  const chat = useChat<ChatUIMessage>({
    id: sessionId,
    messages: initialMessages,
    transport,
    experimental_throttle: 40,
    onData: (part) => {
      if (part.type !== 'data-session') return;
      liveMessageId.current = part.data.messageId;
      onStartedRef.current?.(part.data);
      // Stop was pressed before the server said which message it is.
      if (stopRequested.current) void cancelTurn({ messageId: part.data.messageId });
    },
  });
  const { messages, status, error, sendMessage, regenerate, stop: stopChat } = chat;
  const busy = status === 'submitted' || status === 'streaming';

  const turns = useMemo(() => {
    const out: TurnView[] = [];
    const lastQuestion = messages.findLastIndex((m) => m.role === 'user');
    messages.forEach((m, i) => {
      if (m.role !== 'user') return;
      const answer = messages[i + 1]?.role === 'assistant' ? messages[i + 1] : undefined;
      const isLast = i === lastQuestion;
      let view = turnFromMessages(m, answer, { live: isLast && busy, endedAs: isLast ? endedAs : 'cancelled' });
      if (isLast && error && !busy && view.status !== 'done') view = { ...view, status: 'failed', clientError: clientErrorOf(error, !!answer) };
      else if (isLast && held && view.status !== 'running' && !error) view = { ...view, status: 'running' };
      out.push({ ...view, rating: ratings[view.id] ?? null });
    });
    return out;
  }, [messages, busy, error, endedAs, held, ratings]);

  const begin = useCallback(() => {
    stopRequested.current = false;
    liveMessageId.current = null;
    setEndedAs('failed');
    setHeld(true);
    setTimeout(() => setHeld(false), MIN_WORKING_MS);
  }, []);

  const send = useCallback(
    (question: string, scope: Scope, device?: string) => {
      if (busy) return;
      begin();
      return sendMessage({ text: question }, { body: { sessionId, scope, ...(device ? { device } : {}) } satisfies RequestBody });
    },
    [busy, begin, sendMessage, sessionId],
  );

  const retry = useCallback(
    (id: string, scope: Scope) => {
      if (busy) return;
      begin();
      // A turn the server never stored (refused or lost before it started) is simply asked again.
      const body = { sessionId, scope } satisfies RequestBody;
      return id.startsWith('pending-') ? regenerate({ body }) : regenerate({ messageId: id, body });
    },
    [busy, begin, regenerate, sessionId],
  );

  const stop = useCallback(() => {
    if (!busy || stopRequested.current) return;
    stopRequested.current = true;
    setEndedAs('cancelled');
    setHeld(false);
    // The dropped request aborts the server's loop; the cancel action makes sure even behind a proxy.
    if (liveMessageId.current) void cancelTurn({ messageId: liveMessageId.current });
    const started = !!liveMessageId.current;
    void stopChat().then(async () => {
      // Stopped before the server said which chat this is: ask whether it stored the question, so
      // the header and the chat list show it like any other.
      if (started) return;
      for (const wait of [300, 1200]) {
        await new Promise((r) => setTimeout(r, wait));
        const found = await findSession({ sessionId });
        if (found.ok && found.data) return onStartedRef.current?.({ sessionId: found.data.id, title: found.data.title, createdSession: true });
      }
    });
  }, [busy, stopChat, sessionId]);

  const rate = useCallback(
    async (id: string, rating: 1 | -1 | null) => {
      const before = ratings[id] ?? null;
      setRatings((r) => ({ ...r, [id]: rating }));
      const result = await rateTurn({ messageId: id, rating });
      if (!result.ok) setRatings((r) => ({ ...r, [id]: before }));
    },
    [ratings],
  );

  return { turns, sending: busy || held, send, retry, stop, rate };
}
