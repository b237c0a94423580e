/**
 * The chat stream in the AI SDK's UI message protocol, so any client that speaks it (`useChat`,
 * `readUIMessageStream`, a script) can read a turn. POST /api/chat answers with one assistant
 * message whose parts are:
 * - text parts: the answer as it streams (a `reset` of the agent starts a new text part);
 * - source-url parts: the cited passages, url = the manual viewer at the page, the full source
 *   under `providerMetadata.manualCopilot`;
 * - `data-<event type>` parts: the trail, one per agent event (turn_start, skill, decision,
 *   status, result with hits, error, check, metrics, done), each carrying the event unchanged;
 *   `data-response` carries what the answer's text part cannot (declined, partial, timing);
 * - a transient `data-session` part first: which session and title the turn belongs to.
 * The browser folds a message back into events and those through `applyEvent` (lib/chat/view), the
 * same reducer that builds the stored turn, so live, reloaded and shared chats render alike.
 */
import type { UIMessage, UIMessageChunk } from 'ai';
import type { AgentEvent, AgentEventType, EventOf, EventSource } from '@/lib/agent/events';
import { applyEvent, emptyTurn, type StoredTurn, type TurnStatus, type TurnView } from './view';
import { viewerUrl } from '@/lib/answer/hits';

/** Ids the app generates (UUIDs, base64url); anything else is rejected before touching the DB. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export interface SessionStarted {
  sessionId: string;
  messageId: string;
  title: string;
  createdSession: boolean;
  /** The message this turn replaces (retry). */
  replaced?: string;
}

interface ChatMetadata {
  createdAt?: number;
  /** The stored status (restored messages); a live turn's status comes from its `data-done` part. */
  status?: TurnStatus;
}

type TrailType = Exclude<AgentEventType, 'response_delta' | 'response'>;

type ChatDataParts = { [K in TrailType]: EventOf<K> } & {
  /** The answer's flags; `text` only when the final answer differs from the streamed text. */
  response: Omit<EventOf<'response'>, 'text' | 'sources'> & { text?: string };
  session: SessionStarted;
};

export type ChatUIMessage = UIMessage<ChatMetadata, ChatDataParts>;
export type ChatUIMessageChunk = UIMessageChunk<ChatMetadata, ChatDataParts>;
type ChatPart = ChatUIMessage['parts'][number];

function sourcePart(s: EventSource) {
  return {
    sourceId: `ref-${s.ref}`,
    url: viewerUrl(s),
    title: `${s.manualTitle ?? s.manualId}, page ${s.page}`,
    providerMetadata: { manualCopilot: JSON.parse(JSON.stringify(s)) },
  };
}

function responseData(e: EventOf<'response'>, streamedText: string | null): ChatDataParts['response'] {
  const { text, sources: _sources, ...rest } = e;
  return streamedText === null || streamedText === text ? rest : { ...rest, text };
}

/** Turns agent events into UI message chunks, one turn at a time (it tracks the open text part). */
export class TurnChunkEncoder {
  private textId: string | null = null;
  private texts = 0;
  private streamed = '';

  private openText(out: ChatUIMessageChunk[]) {
    this.textId = `text-${this.texts++}`;
    this.streamed = '';
    out.push({ type: 'text-start', id: this.textId });
  }

  private closeText(out: ChatUIMessageChunk[]) {
    if (this.textId) out.push({ type: 'text-end', id: this.textId });
    this.textId = null;
  }

  encode(event: AgentEvent): ChatUIMessageChunk[] {
    const out: ChatUIMessageChunk[] = [];
    switch (event.type) {
      case 'response_delta':
        if (event.reset) this.closeText(out);
        if (!this.textId) this.openText(out);
        this.streamed += event.delta;
        if (event.delta) out.push({ type: 'text-delta', id: this.textId!, delta: event.delta });
        return out;
      case 'response': {
        let streamed: string | null = null;
        if (this.textId) {
          streamed = this.streamed;
          this.closeText(out);
        } else if (event.text) {
          this.openText(out);
          out.push({ type: 'text-delta', id: this.textId!, delta: event.text });
          this.closeText(out);
        }
        for (const s of event.sources) out.push({ type: 'source-url', ...sourcePart(s) });
        out.push({ type: 'data-response', data: responseData(event, streamed) });
        return out;
      }
      default:
        this.closeText(out);
        out.push({ type: `data-${event.type}`, data: event } as ChatUIMessageChunk);
        return out;
    }
  }
}

/** A stored turn as the two UI messages useChat starts from (question, then the answer with its trail). */
export function storedToMessages(turn: StoredTurn): ChatUIMessage[] {
  const parts: ChatPart[] = [];
  let answered = false;
  for (const e of turn.events) {
    if (e.type === 'response_delta') continue;
    if (e.type === 'response') {
      answered = true;
      if (e.text) parts.push({ type: 'text', text: e.text, state: 'done' });
      for (const s of e.sources) parts.push({ type: 'source-url', ...sourcePart(s) });
      parts.push({ type: 'data-response', data: responseData(e, e.text && turn.answer && turn.answer !== e.text ? turn.answer : null) });
      continue;
    }
    // A stopped turn's partial answer has no response event: its text goes before the end marker.
    if (!answered && e.type === 'done' && turn.answer) {
      parts.push({ type: 'text', text: turn.answer, state: 'done' });
      answered = true;
    }
    parts.push({ type: `data-${e.type}`, data: e } as ChatPart);
  }
  if (!answered && turn.answer) parts.push({ type: 'text', text: turn.answer, state: 'done' });
  return [
    { id: questionId(turn.id), role: 'user', parts: [{ type: 'text', text: turn.question }], metadata: { createdAt: turn.createdAt } },
    { id: turn.id, role: 'assistant', parts, metadata: { createdAt: turn.createdAt, status: turn.status } },
  ];
}

const questionId = (messageId: string) => `q-${messageId}`;

/** The text of a message's text parts (a user message's question). */
export function messageText(message: Pick<ChatUIMessage, 'parts'>): string {
  return message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** Rebuilds the agent events an assistant message carries (text parts become response deltas). */
export function eventsOfMessage(message: Pick<ChatUIMessage, 'parts'>): AgentEvent[] {
  const events: AgentEvent[] = [];
  const sources: EventSource[] = [];
  let texts = 0;
  let lastText = '';
  for (const part of message.parts) {
    if (part.type === 'text') {
      events.push({ type: 'response_delta', delta: part.text, ...(texts++ ? { reset: true } : {}), t: 0 });
      lastText = part.text;
    } else if (part.type === 'source-url') {
      const meta = part.providerMetadata?.manualCopilot as unknown as EventSource | undefined;
      if (meta) sources.push(meta);
    } else if (part.type === 'data-response') {
      const { text, ...rest } = part.data;
      events.push({ ...rest, text: text ?? lastText, sources: [...sources] });
    } else if (part.type.startsWith('data-') && part.type !== 'data-session') {
      events.push((part as { data: AgentEvent }).data);
    }
  }
  return events;
}

/**
 * The view of one turn from its messages, through the one reducer. `live`: the answer is still
 * streaming (no end marker yet means running); otherwise a turn without one ended early.
 */
export function turnFromMessages(question: ChatUIMessage, answer: ChatUIMessage | undefined, opts: { live: boolean; endedAs?: TurnStatus }): TurnView {
  const createdAt = answer?.metadata?.createdAt ?? question.metadata?.createdAt ?? 0;
  let view = emptyTurn(answer?.id ?? `pending-${question.id}`, messageText(question), createdAt);
  for (const e of answer ? eventsOfMessage(answer) : []) view = applyEvent(view, e);
  const ended = view.events.some((e) => e.type === 'done');
  const status: TurnStatus = answer?.metadata?.status ?? (ended ? view.status : opts.live ? 'running' : (opts.endedAs ?? 'cancelled'));
  return { ...view, status };
}
