import { readUIMessageStream } from 'ai';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { eventsOfMessage, storedToMessages, TurnChunkEncoder, turnFromMessages, type ChatUIMessage, type ChatUIMessageChunk } from './protocol';
import { applyEvent, emptyTurn, fromStored } from './view';

const source = {
  ref: 1,
  kind: 'chunk' as const,
  manualId: 'hx-200',
  manualTitle: 'HX-200',
  page: 3,
  chunkId: 'hx-200:3:0',
  snippet: '24 V DC',
  bboxes: [{ x: 1, y: 2, w: 3, h: 4 }],
};

/** Encodes events and reads them back with the AI SDK's own reader. */
async function roundTrip(events: AgentEvent[]): Promise<ChatUIMessage> {
  const encoder = new TurnChunkEncoder();
  const chunks: ChatUIMessageChunk[] = [{ type: 'start', messageId: 'm-12345678' }, ...events.flatMap((e) => encoder.encode(e)), { type: 'finish' }];
  const stream = new ReadableStream<ChatUIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  let last: ChatUIMessage | undefined;
  for await (const m of readUIMessageStream<ChatUIMessage>({ stream, terminateOnError: true })) last = m;
  return last!;
}

const question: ChatUIMessage = { id: 'q-1', role: 'user', parts: [{ type: 'text', text: 'Supply voltage?' }] };

describe('the UI message stream mapping', () => {
  it('answer as text parts, citations as source parts, the trail as typed data parts; folds to what applyEvent builds', async () => {
    const events: AgentEvent[] = [
      { type: 'turn_start', question: 'Supply voltage?', manualIds: null, budget: 5, decider: 'rules', t: 0 },
      { type: 'status', tool: 'hybrid_search', message: 'Searching…', t: 1 },
      { type: 'response_delta', delta: 'It needs ', t: 2 },
      { type: 'response_delta', delta: '24 V DC [1].', t: 3 },
      { type: 'response', text: 'It needs 24 V DC [1].', sources: [source], t: 4 },
      { type: 'done', status: 'done', t: 5 },
    ];
    const message = await roundTrip(events);
    expect(message.parts.map((p) => p.type)).toEqual(['data-turn_start', 'data-status', 'text', 'source-url', 'data-response', 'data-done']);
    expect(message.parts[3]).toMatchObject({ url: '/manuals/hx-200?page=3&hl=hx-200%3A3%3A0', title: 'HX-200, page 3' });

    let expected = emptyTurn('m-12345678', 'Supply voltage?', 0);
    for (const e of events) expected = applyEvent(expected, e);
    expect(turnFromMessages(question, message, { live: true })).toEqual(expected);
  });

  it('a reset starts a new text part; a final text that differs from the streamed one travels in data-response', async () => {
    const message = await roundTrip([
      { type: 'response_delta', delta: 'The model said', t: 1 },
      { type: 'response_delta', delta: 'From the manual: 24 V', reset: true, t: 2 },
      { type: 'response', text: 'From the manual: 24 V [1]', sources: [source], t: 3 },
    ]);
    expect(message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual(['The model said', 'From the manual: 24 V']);
    const view = turnFromMessages(question, message, { live: false, endedAs: 'failed' });
    expect(view).toMatchObject({ answer: 'From the manual: 24 V [1]', restarted: true, status: 'failed', sources: [source] });
  });

  it('a stored turn (stopped, partial answer) restores to what fromStored shows', () => {
    const stored = {
      id: 'm-12345678',
      question: 'Supply voltage?',
      answer: 'It needs',
      events: [
        { type: 'turn_start', question: 'Supply voltage?', manualIds: ['hx-200'], budget: 5, decider: 'rules', t: 0 },
        { type: 'done', status: 'cancelled', t: 9 },
      ] as AgentEvent[],
      status: 'cancelled' as const,
      createdAt: 1000,
      rating: 1 as const,
    };
    const [q, a] = storedToMessages(stored);
    expect(q).toMatchObject({ role: 'user', parts: [{ type: 'text', text: 'Supply voltage?' }] });
    expect(eventsOfMessage(a).map((e) => e.type)).toEqual(['turn_start', 'response_delta', 'done']);
    expect(turnFromMessages(q, a, { live: false })).toEqual({ ...fromStored(stored), rating: null });
  });
});
