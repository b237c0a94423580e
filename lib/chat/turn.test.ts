/**
 * The chat turn over the real agent loop (real tools, rules, LanceDB fixture store, offline
 * embedders) and the real SQLite store: streaming, persistence, ownership, scope and every way a
 * turn can be cancelled.
 */
import { readUIMessageStream } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runTurn, type RunTurnInput } from '@/lib/agent';
import { agentServices } from '@/lib/services/agent-services';
import { fixtureLibraryIndex, openFixtureStore, type FixtureStore } from '@/lib/agent/testing/library';
import { closeDb } from '@/lib/store/db';
import { getOwnedSession, listMessages } from '@/lib/store/sessions';
import { uniqueId } from '@/lib/store/testing/ids';
import { ChatError } from './errors';
import { eventsOfMessage, storedToMessages, turnFromMessages, type ChatUIMessage, type ChatUIMessageChunk } from './protocol';
import { isSessionBusy } from './registry';
import { cancelAnswer, clearChatDevice, loadChat } from './service';
import { prepareTurn, streamTurn, type AskInput } from './turn';
import { WRITER_POLICIES } from '@/lib/agent/testing/turn';

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
  await closeDb();
});

const READY = async () => ['px-200', 'cb-9'];
const newId = () => uniqueId('sess');

function realRun(seen?: RunTurnInput[]) {
  return (input: RunTurnInput) => {
    seen?.push(input);
    return runTurn({ ...input, services: agentServices({ ...fx.deps, policies: WRITER_POLICIES }) });
  };
}

/**
 * The real loop, held after its first decision until the turn is stopped: the stop always lands
 * mid-turn, however fast or slow the machine (no pause to race against).
 */
function heldRun() {
  return (input: RunTurnInput) =>
    (async function* () {
      let held = false;
      for await (const event of runTurn({ ...input, services: agentServices({ ...fx.deps, policies: WRITER_POLICIES }) })) {
        yield event;
        if (!held && event.type === 'decision') {
          held = true;
          await untilAborted(input.signal);
        }
      }
    })();
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) throw new Error('the turn has no signal to stop it');
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

type Chunk = ChatUIMessageChunk;

/** Reads the chunk stream; `onChunk` may act mid-stream (stop, disconnect). */
async function readChunks(stream: ReadableStream<Chunk>, onChunk?: (chunk: Chunk, reader: ReadableStreamDefaultReader<Chunk>) => Promise<void> | void) {
  const reader = stream.getReader();
  const chunks: Chunk[] = [];
  for (;;) {
    let next;
    try {
      next = await reader.read();
    } catch {
      break;
    }
    if (next.done) break;
    chunks.push(next.value);
    await onChunk?.(next.value, reader);
  }
  return chunks;
}

/** The assistant message the AI SDK's own reader builds from the chunks. */
async function messageOf(chunks: Chunk[]): Promise<ChatUIMessage> {
  let last: ChatUIMessage | undefined;
  const stream = new ReadableStream<Chunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  for await (const m of readUIMessageStream<ChatUIMessage>({ stream, terminateOnError: true })) last = m;
  return last!;
}

const sessionChunk = (chunks: Chunk[]) => chunks.find((c) => c.type === 'data-session') as { data: Record<string, unknown> } | undefined;

async function ask(input: Partial<AskInput> & { ownerId: string; sessionId: string }, seen?: RunTurnInput[]) {
  const turn = await prepareTurn({ scope: 'all', ...input }, { searchableManualIds: READY });
  const chunks = await readChunks(streamTurn(turn, undefined, { run: realRun(seen) }));
  return { turn, chunks, message: await messageOf(chunks) };
}

/** Polls `check` (assertions) until it passes; the ceiling only turns a hang into a clear failure. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

describe('a chat turn', () => {
  it('creates the session on the first question, streams every event and stores the turn', async () => {
    const sessionId = newId();
    const { chunks, message } = await ask({ ownerId: 'alice', sessionId, question: 'What is the full-load current of the PX-200 motor?' });

    expect(chunks[0]).toMatchObject({ type: 'start', messageId: expect.any(String) });
    expect(sessionChunk(chunks)?.data).toMatchObject({ sessionId, createdSession: true, title: 'What is the full-load current of the PX-200 motor?' });
    const events = eventsOfMessage(message);
    expect(events[0].type).toBe('turn_start');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['decision', 'status', 'result', 'response_delta', 'response', 'check', 'metrics', 'done']),
    );
    expect(message.metadata?.status).toBe('done');
    // The answer is a text part, its citations source parts, the trail typed data parts.
    expect(message.parts.some((p) => p.type === 'text' && /6\.8 A \[\d+\]/.test(p.text))).toBe(true);
    expect(message.parts).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'source-url', url: expect.stringMatching(/^\/manuals\/px-200\?page=1/) })]),
    );
    expect(message.parts.filter((p) => p.type === 'data-result').length).toBeGreaterThan(0);

    const [row] = await listMessages(sessionId);
    expect(row.status).toBe('done');
    expect(row.answer).toMatch(/6\.8 A \[\d+\]/);
    expect((row.events as Array<{ type: string }>).some((e) => e.type === 'response_delta')).toBe(false);
    expect((row.events as Array<{ type: string }>).filter((e) => e.type === 'decision').length).toBeGreaterThan(0);
    expect(row.sources).toEqual(expect.arrayContaining([expect.objectContaining({ manualId: 'px-200', page: 1, chunkId: 'px-200:1:0' })]));
    expect(row.metrics).toMatchObject({ path: expect.any(Array) });
    expect(row.metrics).not.toHaveProperty('audit');
    expect(row.audit).toEqual(expect.any(Array));
    expect((await getOwnedSession(sessionId, 'alice'))?.ownerId).toBe('alice');
  });

  it('the streamed message and the reloaded chat fold to the same turn view (one reducer)', async () => {
    const sessionId = newId();
    const { message } = await ask({ ownerId: 'alice', sessionId, question: 'What does error code E07 mean?' });
    const [stored] = (await loadChat(sessionId, 'alice')).turns;
    const [q, restored] = storedToMessages(stored);
    const live = turnFromMessages(q, message, { live: false });
    const reloaded = turnFromMessages(q, restored, { live: false });
    const comparable = (v: typeof live) => ({ ...v, events: v.events.map((e) => e.type), createdAt: 0, rating: null, restarted: false });
    expect(comparable(live)).toEqual(comparable(reloaded));
    expect(live).toMatchObject({ id: stored.id, status: 'done', answer: stored.answer });
    expect(live.sources.length).toBeGreaterThan(0);
  });

  it('passes the ready manuals as scope and earlier answers as history', async () => {
    const sessionId = newId();
    const seen: RunTurnInput[] = [];
    await ask({ ownerId: 'alice', sessionId, question: 'What supply voltage does the board take?' }, seen);
    await ask({ ownerId: 'alice', sessionId, question: 'And the pinout of J2?', scope: ['cb-9', 'not-ready'] }, seen);
    expect(seen[0].manualIds).toEqual(['px-200', 'cb-9']);
    expect(seen[0].history).toEqual([]);
    expect(seen[1].manualIds).toEqual(['cb-9']);
    expect(seen[1].history?.[0]).toEqual({ role: 'user', content: 'What supply voltage does the board take?' });
    expect(seen[1].history?.[1].content).toContain('12 to 24 V DC');
    expect((await getOwnedSession(sessionId, 'alice'))?.scope).toEqual(['cb-9', 'not-ready']);
  });

  it('keeps the device the first question names for the next, stores it with the chat and forgets it when cleared', async () => {
    const sessionId = newId();
    const seen: RunTurnInput[] = [];
    const index = fixtureLibraryIndex();
    const run = (input: RunTurnInput) => {
      seen.push(input);
      return runTurn({ ...input, services: agentServices({ ...fx.deps, policies: WRITER_POLICIES, libraryIndex: async () => index }) });
    };
    const askHere = async (question: string) => {
      const turn = await prepareTurn({ scope: 'all', ownerId: 'alice', sessionId, question }, { searchableManualIds: READY });
      return messageOf(await readChunks(streamTurn(turn, undefined, { run })));
    };
    const scopeOf = (message: ChatUIMessage) => eventsOfMessage(message).find((e) => e.type === 'scope');

    const first = await askHere('What current does the PX-200 motor draw at full load?');
    expect(seen[0].device).toBeNull();
    expect(scopeOf(first)).toMatchObject({ manualIds: null, first: ['px-200'], device: { manualIds: ['px-200'], device: 'PX-200', turn: 1 } });
    expect((await getOwnedSession(sessionId, 'alice'))?.device).toEqual({ manualIds: ['px-200'], device: 'PX-200', turn: 1 });

    const second = await askHere('How often should the inlet strainer be cleaned?');
    expect(seen[1]).toMatchObject({ device: { manualIds: ['px-200'], turn: 1 }, turn: 2 });
    expect(scopeOf(second)).toMatchObject({ first: ['px-200'], reason: expect.stringContaining('named in your first question') });
    const found = eventsOfMessage(second).find((e) => e.type === 'result');
    expect(found?.type === 'result' && found.hits[0].manualId).toBe('px-200');

    await clearChatDevice('alice', sessionId);
    expect((await getOwnedSession(sessionId, 'alice'))?.device).toBeNull();
    const third = await askHere('How often should the inlet strainer be cleaned?');
    expect(seen[2].device).toBeNull();
    expect(scopeOf(third)).toMatchObject({ manualIds: null, device: null });
  });

  it('refuses another owner, unready scopes and an empty library before anything is stored', async () => {
    const sessionId = newId();
    await ask({ ownerId: 'alice', sessionId, question: 'What is the full-load current?' });
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e) => (e instanceof ChatError ? e.code : String(e)),
      );

    expect(await code(prepareTurn({ ownerId: 'mallory', sessionId, question: 'hi', scope: 'all' }, { searchableManualIds: READY }))).toBe('not_found:chat');
    expect(await code(prepareTurn({ ownerId: 'mallory', sessionId: newId(), retryOf: 'some-message', scope: 'all' }, { searchableManualIds: READY }))).toBe(
      'not_found:chat',
    );
    expect(await code(prepareTurn({ ownerId: 'alice', sessionId: newId(), question: 'hi', scope: 'all' }, { searchableManualIds: async () => [] }))).toBe(
      'unavailable:manuals',
    );
    expect(await code(prepareTurn({ ownerId: 'alice', sessionId: newId(), question: 'hi', scope: ['gone'] }, { searchableManualIds: READY }))).toBe(
      'bad_request:scope',
    );
    expect(await listMessages(sessionId)).toHaveLength(1);
  });

  it('retry replaces the last answer at the same position', async () => {
    const sessionId = newId();
    await ask({ ownerId: 'alice', sessionId, question: 'What does error code E07 mean?' });
    const [first] = await listMessages(sessionId);
    const code = await prepareTurn({ ownerId: 'alice', sessionId, retryOf: 'not-the-last', scope: 'all' }, { searchableManualIds: READY }).catch((e) => e.code);
    expect(code).toBe('bad_request:message');
    const { chunks } = await ask({ ownerId: 'alice', sessionId, retryOf: first.id });
    expect(sessionChunk(chunks)?.data).toMatchObject({ replaced: first.id, createdSession: false });
    const rows = await listMessages(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ position: 0, question: 'What does error code E07 mean?', status: 'done' });
    expect(rows[0].id).not.toBe(first.id);
  });

  describe('cancellation reaches the agent loop', () => {
    it('Stop (cancel action) ends the turn as cancelled and keeps what it had; the session is busy meanwhile', async () => {
      const sessionId = newId();
      const turn = await prepareTurn(
        { ownerId: 'alice', sessionId, question: 'Which wire goes to terminal N in the wiring diagram?', scope: 'all' },
        { searchableManualIds: READY },
      );
      expect(isSessionBusy(sessionId)).toBe(true);
      expect(await prepareTurn({ ownerId: 'alice', sessionId, question: 'again', scope: 'all' }, { searchableManualIds: READY }).catch((e) => e.code)).toBe(
        'busy:chat',
      );

      let stopped = false;
      const chunks = await readChunks(streamTurn(turn, undefined, { run: heldRun() }), async (chunk) => {
        if (!stopped && chunk.type === 'data-decision') {
          stopped = true;
          // Partial state is already stored while the turn runs.
          await eventually(async () => expect(((await listMessages(sessionId))[0].events ?? []).length).toBeGreaterThanOrEqual(2));
          expect((await listMessages(sessionId))[0].status).toBe('running');
          expect(await cancelAnswer('mallory', turn.message.id).catch((e) => e.code)).toBe('not_found:message');
          expect(await cancelAnswer('alice', turn.message.id)).toEqual({ aborted: true });
        }
      });
      const message = await messageOf(chunks);
      const events = eventsOfMessage(message);
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
      expect(events.some((e) => e.type === 'response' && !e.partial)).toBe(false);
      expect(message.metadata?.status).toBe('cancelled');
      const [row] = await listMessages(sessionId);
      expect(row.status).toBe('cancelled');
      expect((row.events as Array<{ type: string }>).map((e) => e.type)).toEqual(expect.arrayContaining(['turn_start', 'decision', 'metrics', 'done']));
      expect(isSessionBusy(sessionId)).toBe(false);
    });

    it('the client going away (stream cancelled) aborts the loop', async () => {
      const sessionId = newId();
      const turn = await prepareTurn({ ownerId: 'alice', sessionId, question: 'What is the full-load current?', scope: 'all' }, { searchableManualIds: READY });
      await readChunks(streamTurn(turn, undefined, { run: heldRun() }), async (chunk, reader) => {
        if (chunk.type === 'data-decision') await reader.cancel();
      });
      await eventually(async () => expect((await listMessages(sessionId))[0].status).not.toBe('running'));
      expect((await listMessages(sessionId))[0].status).toBe('cancelled');
    });

    it('an aborted request signal aborts the loop', async () => {
      const sessionId = newId();
      const request = new AbortController();
      const turn = await prepareTurn({ ownerId: 'alice', sessionId, question: 'What is the full-load current?', scope: 'all' }, { searchableManualIds: READY });
      const chunks = await readChunks(streamTurn(turn, request.signal, { run: heldRun() }), (chunk) => {
        if (chunk.type === 'data-turn_start') request.abort();
      });
      expect((await messageOf(chunks)).metadata?.status).toBe('cancelled');
      expect((await listMessages(sessionId))[0].status).toBe('cancelled');
    });
  });

  it('ignores the debug pause outside end-to-end runs', async () => {
    const turn = await prepareTurn(
      { ownerId: 'alice', sessionId: newId(), question: 'E07?', scope: 'all', debugDelayMs: 5000 },
      { searchableManualIds: READY },
    );
    expect(turn.debugDelayMs).toBe(0);
    await readChunks(streamTurn(turn, undefined, { run: realRun() }));
  });
});
