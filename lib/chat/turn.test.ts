/**
 * The chat turn over the real agent loop (real tools, rules, LanceDB fixture store, offline
 * embedders) and the real SQLite store: streaming, persistence, ownership, scope and every way a
 * turn can be cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTurn, type RunTurnInput } from '@/lib/agent';
import { openFixtureStore, type FixtureStore } from '@/lib/agent/testing-store';
import { closeDb } from '@/lib/store/db';
import { getOwnedSession, listMessages } from '@/lib/store/sessions';
import { ChatError } from './errors';
import { LineDecoder, type StreamLine } from './protocol';
import { isSessionBusy } from './registry';
import { cancelAnswer } from './service';
import { prepareTurn, streamTurn, type AskInput } from './turn';

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
  await closeDb();
});

const READY = async () => ['px-200', 'cb-9'];
let n = 0;
const newId = () => `sess-${Date.now().toString(36)}-${n++}`;

function realRun(seen?: RunTurnInput[]) {
  return (input: RunTurnInput) => {
    seen?.push(input);
    return runTurn({ ...input, deps: fx.deps });
  };
}

/** Reads the stream line by line; `onLine` may act mid-stream (stop, disconnect). */
async function readLines(stream: ReadableStream<Uint8Array>, onLine?: (line: StreamLine, reader: ReadableStreamDefaultReader<string>) => Promise<void> | void) {
  const reader = stream.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  const decoder = new LineDecoder();
  const lines: StreamLine[] = [];
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      break;
    }
    const batch = chunk.done ? decoder.flush() : decoder.push(chunk.value);
    for (const line of batch) {
      lines.push(line);
      await onLine?.(line, reader);
    }
    if (chunk.done) break;
  }
  return lines;
}

async function ask(input: Partial<AskInput> & { ownerId: string; sessionId: string }, seen?: RunTurnInput[]) {
  const turn = await prepareTurn({ scope: 'all', ...input }, { readyManualIds: READY });
  return { turn, lines: await readLines(streamTurn(turn, undefined, { run: realRun(seen) })) };
}

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
}

describe('a chat turn', () => {
  it('creates the session on the first question, streams every event and stores the turn', async () => {
    const sessionId = newId();
    const { lines } = await ask({ ownerId: 'alice', sessionId, question: 'What is the full-load current of the PX-200 motor?' });

    expect(lines[0]).toMatchObject({ kind: 'start', sessionId, createdSession: true, title: 'What is the full-load current of the PX-200 motor?' });
    const events = lines.flatMap((l) => (l.kind === 'event' ? [l.event] : []));
    expect(events[0].type).toBe('turn_start');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['decision', 'status', 'result', 'response_delta', 'response', 'check', 'metrics', 'done']));
    expect(lines.at(-1)).toEqual({ kind: 'end', status: 'done' });

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

  it('refuses another owner, unready scopes and an empty library before anything is stored', async () => {
    const sessionId = newId();
    await ask({ ownerId: 'alice', sessionId, question: 'What is the full-load current?' });
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e) => (e instanceof ChatError ? e.code : String(e)));

    expect(await code(prepareTurn({ ownerId: 'mallory', sessionId, question: 'hi', scope: 'all' }, { readyManualIds: READY }))).toBe('not_found:chat');
    expect(await code(prepareTurn({ ownerId: 'mallory', sessionId: newId(), retryOf: 'some-message', scope: 'all' }, { readyManualIds: READY }))).toBe('not_found:chat');
    expect(await code(prepareTurn({ ownerId: 'alice', sessionId: newId(), question: 'hi', scope: 'all' }, { readyManualIds: async () => [] }))).toBe('unavailable:manuals');
    expect(await code(prepareTurn({ ownerId: 'alice', sessionId: newId(), question: 'hi', scope: ['gone'] }, { readyManualIds: READY }))).toBe('bad_request:scope');
    expect(await listMessages(sessionId)).toHaveLength(1);
  });

  it('retry replaces the last answer at the same position', async () => {
    const sessionId = newId();
    await ask({ ownerId: 'alice', sessionId, question: 'What does error code E07 mean?' });
    const [first] = await listMessages(sessionId);
    const code = await prepareTurn({ ownerId: 'alice', sessionId, retryOf: 'not-the-last', scope: 'all' }, { readyManualIds: READY }).catch((e) => e.code);
    expect(code).toBe('bad_request:message');
    const { lines } = await ask({ ownerId: 'alice', sessionId, retryOf: first.id });
    expect(lines[0]).toMatchObject({ kind: 'start', replaced: first.id, createdSession: false });
    const rows = await listMessages(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ position: 0, question: 'What does error code E07 mean?', status: 'done' });
    expect(rows[0].id).not.toBe(first.id);
  });

  describe('cancellation reaches the agent loop', () => {
    const slow = { debugDelayMs: 300 };
    beforeAll(() => {
      process.env.MC_E2E = '1'; // enables the test-only pause between events
    });
    afterAll(() => {
      delete process.env.MC_E2E;
    });

    it('Stop (cancel action) ends the turn as cancelled and keeps what it had; the session is busy meanwhile', async () => {
      const sessionId = newId();
      const turn = await prepareTurn({ ownerId: 'alice', sessionId, question: 'Which wire goes to terminal N in the wiring diagram?', scope: 'all', ...slow }, { readyManualIds: READY });
      expect(isSessionBusy(sessionId)).toBe(true);
      expect(await prepareTurn({ ownerId: 'alice', sessionId, question: 'again', scope: 'all' }, { readyManualIds: READY }).catch((e) => e.code)).toBe('busy:chat');

      let stopped = false;
      const lines = await readLines(streamTurn(turn, undefined, { run: realRun() }), async (line) => {
        if (!stopped && line.kind === 'event' && line.event.type === 'decision') {
          stopped = true;
          // Partial state is already stored while the turn runs.
          await waitFor(async () => ((await listMessages(sessionId))[0].events ?? []).length >= 2);
          expect((await listMessages(sessionId))[0].status).toBe('running');
          expect(await cancelAnswer('mallory', turn.message.id).catch((e) => e.code)).toBe('not_found:message');
          expect(await cancelAnswer('alice', turn.message.id)).toEqual({ aborted: true });
        }
      });
      const events = lines.flatMap((l) => (l.kind === 'event' ? [l.event] : []));
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
      expect(events.some((e) => e.type === 'response' && !e.partial)).toBe(false);
      expect(lines.at(-1)).toEqual({ kind: 'end', status: 'cancelled' });
      const [row] = await listMessages(sessionId);
      expect(row.status).toBe('cancelled');
      expect((row.events as Array<{ type: string }>).map((e) => e.type)).toEqual(expect.arrayContaining(['turn_start', 'decision', 'metrics', 'done']));
      expect(isSessionBusy(sessionId)).toBe(false);
    });

    it('the client going away (stream cancelled) aborts the loop', async () => {
      const sessionId = newId();
      const turn = await prepareTurn({ ownerId: 'alice', sessionId, question: 'What is the full-load current?', scope: 'all', ...slow }, { readyManualIds: READY });
      await readLines(streamTurn(turn, undefined, { run: realRun() }), async (line, reader) => {
        if (line.kind === 'event' && line.event.type === 'decision') await reader.cancel();
      });
      await waitFor(async () => (await listMessages(sessionId))[0].status !== 'running');
      expect((await listMessages(sessionId))[0].status).toBe('cancelled');
    });

    it('an aborted request signal aborts the loop', async () => {
      const sessionId = newId();
      const request = new AbortController();
      const turn = await prepareTurn({ ownerId: 'alice', sessionId, question: 'What is the full-load current?', scope: 'all', ...slow }, { readyManualIds: READY });
      const lines = await readLines(streamTurn(turn, request.signal, { run: realRun() }), (line) => {
        if (line.kind === 'event' && line.event.type === 'turn_start') request.abort();
      });
      expect(lines.at(-1)).toEqual({ kind: 'end', status: 'cancelled' });
      expect((await listMessages(sessionId))[0].status).toBe('cancelled');
    });
  });

  it('ignores the debug pause outside end-to-end runs', async () => {
    const turn = await prepareTurn({ ownerId: 'alice', sessionId: newId(), question: 'E07?', scope: 'all', debugDelayMs: 5000 }, { readyManualIds: READY });
    expect(turn.debugDelayMs).toBe(0);
    await readLines(streamTurn(turn, undefined, { run: realRun() }));
  });
});
