/**
 * One chat turn, server side: checks the owner and the manual scope, creates the session on its
 * first question, stores a running message, then streams the agent's events as a UI message
 * stream (lib/chat/protocol) while folding them into the stored message (so a stopped or crashed
 * turn keeps what it had).
 *
 * Cancellation: the turn's AbortController (lib/chat/registry.ts) is aborted by the Stop button's
 * cancel action and by the request's signal when the client disconnects (useChat's stop() aborts
 * the fetch). The agent loop receives that signal and ends the turn with status 'cancelled'.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { createUIMessageStream } from 'ai';
import { sleep } from '@/lib/runtime/abort';
import { DISK_FULL_MESSAGE_TEXT, isDiskFull } from '@/lib/runtime/disk-space';
import { historyOf, runTurn, type AgentEvent, type RunTurnInput } from '@/lib/agent';
import { agentServices } from '@/lib/services/agent-services';
import { runtimeFlag } from '@/lib/config';
import { getManual, searchableManualIds } from '@/lib/store/manuals';
import { deviceName } from '@/lib/device/name';
import { defaultTools } from '@/tools';
import {
  createSession,
  deleteMessage,
  getSession,
  insertMessage,
  listMessages,
  markInterrupted,
  touchSession,
  updateMessage,
  type MessageRow,
  type SessionRow,
} from '@/lib/store/sessions';
import { ChatError } from './errors';
import { TurnChunkEncoder, type ChatUIMessage, type ChatUIMessageChunk } from './protocol';
import { activeTurn, isSessionBusy, registerTurn, settleStoppedTurns, unregisterTurn, type ActiveTurn } from './registry';
import { applyEvent, emptyTurn, titleFromQuestion, type TurnView } from './view';

export interface AskInput {
  ownerId: string;
  sessionId: string;
  /** The question; ignored when retrying (the retried message's question is asked again). */
  question?: string;
  /** Re-ask the last message of the session, replacing it. */
  retryOf?: string;
  /** 'all' = every searchable manual (ready, or processing with ready pages); otherwise the chosen ids (the others are dropped). */
  scope: 'all' | string[];
  /** The device picked from a "Which device?" reply (a manual id): it becomes the chat's device before this question runs. */
  device?: string;
  /** End-to-end tests only (MC_E2E=1): pause between events so Stop can be exercised. */
  debugDelayMs?: number;
}

export interface PreparedTurn {
  session: SessionRow;
  message: MessageRow;
  createdSession: boolean;
  replaced?: string;
  manualIds: string[];
  history: NonNullable<RunTurnInput['history']>;
  /** This question's number in the chat (1 = first): the device context says which question named it. */
  turnNumber: number;
  active: ActiveTurn;
  debugDelayMs: number;
}

type RunFn = (input: RunTurnInput) => AsyncIterable<AgentEvent>;

export async function prepareTurn(input: AskInput, deps: { searchableManualIds?: () => Promise<string[]> } = {}): Promise<PreparedTurn> {
  let session = await getSession(input.sessionId);
  if (session && session.ownerId !== input.ownerId) throw new ChatError('not_found:chat');
  if (!session && input.retryOf) throw new ChatError('not_found:chat');
  if (session) await settleStoppedTurns(session.id);
  if (session && isSessionBusy(session.id)) throw new ChatError('busy:chat');

  // "all" means the manuals searchable right now: the ready ones and the ready pages of those still
  // processing (progressive availability); a manual with no ready page yet is not searched.
  const ready = await (deps.searchableManualIds ?? searchableManualIds)();
  if (!ready.length) throw new ChatError('unavailable:manuals');
  let manualIds: string[];
  let scope: string[] | null;
  if (input.scope === 'all') {
    manualIds = ready;
    scope = null;
  } else {
    const chosen = [...new Set(input.scope)];
    manualIds = chosen.filter((id) => ready.includes(id));
    if (!manualIds.length) throw new ChatError('bad_request:scope');
    scope = chosen;
  }

  const prior = session ? await listMessages(session.id) : [];
  // A message left 'running' by a crashed process or a dropped connection is over.
  await markInterrupted(prior.filter((m) => m.status === 'running' && !activeTurn(m.id)).map((m) => m.id));

  let question = input.question?.trim();
  let replaced: string | undefined;
  if (input.retryOf) {
    const last = prior.at(-1);
    if (!last || last.id !== input.retryOf) throw new ChatError('bad_request:message');
    question = last.question;
    await deleteMessage(last.id);
    prior.pop();
    replaced = last.id;
  }
  if (!question) throw new ChatError('bad_request:chat');

  let createdSession = false;
  if (!session) {
    session = await createSession({ id: input.sessionId, ownerId: input.ownerId, title: titleFromQuestion(question), scope });
    createdSession = true;
  } else {
    await touchSession(session.id, { scope });
  }
  if (input.device) {
    // A picked device: the chat is about it from this question on (lib/agent/device-context.ts).
    const manual = ready.includes(input.device) ? await getManual(input.device) : undefined;
    if (!manual) throw new ChatError('bad_request:scope');
    const device = { manualIds: [manual.id], device: deviceName(manual.title || manual.fileName), turn: prior.length + 1 };
    await touchSession(session.id, { device });
    session = { ...session, device };
  }
  const message = await insertMessage({ id: randomUUID(), sessionId: session.id, question });
  const active = registerTurn({ messageId: message.id, sessionId: session.id, ownerId: input.ownerId });
  return {
    session,
    message,
    createdSession,
    replaced,
    manualIds,
    history: historyOf(prior.map((m) => ({ question: m.question, answer: m.answer, status: m.status }))),
    turnNumber: prior.length + 1,
    active,
    debugDelayMs: runtimeFlag('MC_E2E') ? (input.debugDelayMs ?? 0) : 0,
  };
}

/** What a turn view stores in its messages row. */
function messagePatch(view: TurnView) {
  const metrics = view.metrics ? (({ audit: _audit, ...rest }) => rest)(view.metrics) : null;
  return {
    answer: view.answer,
    events: view.events as unknown[],
    sources: view.sources as unknown[],
    metrics: metrics as Record<string, unknown> | null,
    audit: (view.metrics?.audit ?? null) as unknown[] | null,
    status: view.status,
  };
}

/** Saves partial state at most this often while the answer text streams. */
const DELTA_SAVE_MS = 400;

/**
 * Runs the prepared turn and returns its UI message chunk stream. The turn runs to its end even if
 * nobody reads (an abort ends it quickly), so the stored message always gets a final status.
 */
export function streamTurn(turn: PreparedTurn, requestSignal?: AbortSignal, deps: { run?: RunFn } = {}): ReadableStream<ChatUIMessageChunk> {
  const run = deps.run ?? runTurn;
  const { controller: abort } = turn.active;
  const onRequestAbort = () => abort.abort(new DOMException('the client disconnected', 'AbortError'));
  if (requestSignal?.aborted) onRequestAbort();
  requestSignal?.addEventListener('abort', onRequestAbort, { once: true });

  const chunks = createUIMessageStream<ChatUIMessage>({
    execute: async ({ writer }) => {
      try {
        await pump(turn, run, (chunk) => writer.write(chunk));
      } catch (err) {
        console.error('[chat] the turn stream failed', err);
      } finally {
        requestSignal?.removeEventListener('abort', onRequestAbort);
      }
    },
  });
  // The SDK's stream ignores a reader going away; a cancelled response must still stop the loop.
  const reader = chunks.getReader();
  return new ReadableStream<ChatUIMessageChunk>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      if (!abort.signal.aborted) abort.abort(new DOMException('the response stream was cancelled', 'AbortError'));
      await reader.cancel(reason);
    },
  });
}

async function pump(turn: PreparedTurn, run: RunFn, send: (chunk: ChatUIMessageChunk) => void): Promise<void> {
  const { message, session, active } = turn;
  const signal = active.controller.signal;
  let view = emptyTurn(message.id, message.question, message.createdAt.getTime());

  // Writes are chained so they land in order; a failed write is logged, never fatal to the stream.
  let writes: Promise<void> = Promise.resolve();
  const save = () => {
    const patch = messagePatch(view);
    writes = writes.then(() => updateMessage(message.id, patch)).catch((err) => console.error('[chat] could not save the turn', err));
    return writes;
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  const saveSoon = () => {
    timer ??= setTimeout(() => {
      timer = null;
      void save();
    }, DELTA_SAVE_MS);
  };

  const encoder = new TurnChunkEncoder();
  const emit = (event: AgentEvent) => {
    for (const chunk of encoder.encode(event)) send(chunk);
  };
  send({ type: 'start', messageId: message.id, messageMetadata: { createdAt: message.createdAt.getTime() } });
  const started = { sessionId: session.id, messageId: message.id, title: session.title, createdSession: turn.createdSession };
  send({ type: 'data-session', data: turn.replaced ? { ...started, replaced: turn.replaced } : started, transient: true });
  // The chat's device context (lib/agent/device-context.ts): read at the start, stored when the turn moves it.
  let device = session.device ?? null;
  const deviceBefore = JSON.stringify(device);
  try {
    const input = {
      tools: defaultTools,
      question: message.question,
      history: turn.history,
      manualIds: turn.manualIds,
      device,
      turn: turn.turnNumber,
      signal,
      services: agentServices(),
    };
    for await (const event of run(input)) {
      if (event.type === 'scope') device = event.device;
      view = applyEvent(view, event);
      emit(event);
      if (event.type === 'response_delta') saveSoon();
      else void save();
      if (turn.debugDelayMs && (event.type === 'turn_start' || event.type === 'decision' || event.type === 'status' || event.type === 'result')) {
        await sleep(turn.debugDelayMs, signal).catch(() => undefined); // a stop ends the pause early
      }
    }
  } catch (err) {
    // runTurn turns failures into events; reaching here means the loop itself broke.
    const aborted = signal.aborted;
    if (!aborted) console.error('[chat] the agent loop failed', err);
    const event: AgentEvent = aborted
      ? { type: 'done', status: 'cancelled', t: 0 }
      : {
          type: 'error',
          tool: 'agent',
          message: isDiskFull(err) ? DISK_FULL_MESSAGE_TEXT : err instanceof Error ? err.message : String(err),
          recoverable: false,
          t: 0,
        };
    view = applyEvent(view, event);
    emit(event);
  } finally {
    if (timer) clearTimeout(timer);
    if (view.status === 'running') view = { ...view, status: signal.aborted ? 'cancelled' : 'failed' };
    await save();
    unregisterTurn(message.id);
    await touchSession(session.id, JSON.stringify(device) === deviceBefore ? {} : { device }).catch(() => undefined);
    // A turn that ended without its own end marker (the loop broke) still tells the client how.
    if (!view.events.some((e) => e.type === 'done')) emit({ type: 'done', status: view.status === 'running' ? 'failed' : view.status, t: 0 });
    send({ type: 'finish', messageMetadata: { status: view.status } });
  }
}
