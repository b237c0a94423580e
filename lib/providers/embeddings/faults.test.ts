/**
 * Embedding provider faults. The real openai-compatible embedder talks to a real HTTP
 * server on loopback that misbehaves (429, 5xx, no answer, malformed JSON, wrong vectors): it
 * retries what may pass, then fails with a message that names the server and the fault, and never
 * hangs. During a chat turn (real LanceDB fixture store) a failing query embedder degrades the
 * hybrid search to keywords, says so, and the turn still ends with a cited answer. A hang fails on
 * the test timeout.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { eventsOf } from '@/lib/agent/testing/turn';
import { openFixtureStore, type FixtureStore } from '@/lib/agent/testing/library';
import { collectTurn } from '@/lib/agent/testing/turn';
import { embeddingsReply, openaiErrorReply, startFaultServer, type FaultReply, type FaultRequest, type FaultServer } from '@/test/fault-server';
import { OpenAICompatibleEmbedder, type OpenAICompatibleEmbedderOptions } from './openai-compatible';

/** A deterministic vector of `dims` values for a text (its length, then ones). */
const vectorOf = (dims: number) => (text: string) => [text.length, ...Array.from({ length: dims - 1 }, () => 1)];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => ({ status: 503, body: 'not configured' }));
});
afterAll(async () => {
  await server?.close();
});

const DIMS = 8;
const healthy = (req: FaultRequest): FaultReply => embeddingsReply(req, vectorOf(DIMS));

/** A fresh embedder (its probe answered healthily), then `handler` for everything after. */
async function embedderThen(handler: (req: FaultRequest, n: number) => FaultReply, opts: Partial<OpenAICompatibleEmbedderOptions> = {}) {
  server.respond(healthy);
  const embedder = await OpenAICompatibleEmbedder.create({
    baseURL: `${server.url}/v1`,
    model: 'fake-embedder',
    timeoutMs: 300,
    maxAttempts: 3,
    initialBackoffMs: 10,
    maxBackoffMs: 20,
    ...opts,
  });
  const start = server.requests.length;
  server.respond((req, n) => handler(req, n - start));
  return { embedder, calls: () => server.requests.length - start };
}

describe('the openai-compatible embedder against a misbehaving server', () => {
  it('429 with Retry-After: 0, then healthy: retried, the vectors come back', async () => {
    const { embedder, calls } = await embedderThen((req, n) => (n === 1 ? openaiErrorReply(429, 'slow down', { 'retry-after': '0' }) : healthy(req)));
    const vectors = await embedder.embedDocuments(['ab', 'abcdef']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(DIMS);
    expect(calls()).toBe(2);
  });

  it('429 asking to wait an hour: not waited for; fails at once, saying what the server asked', async () => {
    const { embedder, calls } = await embedderThen(() => openaiErrorReply(429, 'quota exceeded', { 'retry-after': '3600' }));
    await expect(embedder.embedQuery('which fuse?')).rejects.toThrow(
      /^embedding server 127\.0\.0\.1:\d+ \(fake-embedder\) failed: quota exceeded \(it asked to retry after 3600 s\)$/,
    );
    expect(calls()).toBe(1);
  });

  it('5xx forever: three attempts, then an error naming the server, the fault and the attempts', async () => {
    const { embedder, calls } = await embedderThen(() => openaiErrorReply(500, 'model crashed'));
    await expect(embedder.embedDocuments(['a', 'b', 'c'])).rejects.toThrow(
      /^embedding server 127\.0\.0\.1:\d+ \(fake-embedder\) failed: model crashed \(gave up after 3 attempts\)$/,
    );
    expect(calls()).toBe(3);
  });

  it('a server that never answers: every attempt times out, then a clear error instead of a hang', async () => {
    const { embedder, calls } = await embedderThen(() => 'hang');
    await expect(embedder.embedQuery('which fuse?')).rejects.toThrow(/did not answer within 300 ms \(gave up after 3 attempts\)$/);
    expect(calls()).toBe(3);
  });

  it('a server that is down at creation: fails after its retries with the reason', async () => {
    const down = await startFaultServer(() => 'hang');
    const url = down.url;
    await down.close(); // nothing listens on the port any more: connection refused
    const created = OpenAICompatibleEmbedder.create({ baseURL: `${url}/v1`, model: 'm', maxAttempts: 2, initialBackoffMs: 10, maxBackoffMs: 20 });
    await expect(created).rejects.toThrow(/^embedding server 127\.0\.0\.1:\d+ \(m\) failed: .*(ECONNREFUSED|connect).*\(gave up after 2 attempts\)$/i);
  });

  it('malformed JSON: a clear error at once (a broken answer is not retried)', async () => {
    const { embedder, calls } = await embedderThen(() => ({ status: 200, body: '{"data": [ {"embedding": [1, 2' }));
    await expect(embedder.embedQuery('x')).rejects.toThrow(/^embedding server 127\.0\.0\.1:\d+ \(fake-embedder\) failed: Invalid JSON response/);
    expect(calls()).toBe(1);
  });

  it('vectors of the wrong length, or fewer vectors than texts, are refused', async () => {
    const short = await embedderThen((req) => embeddingsReply(req, vectorOf(DIMS - 3)));
    await expect(short.embedder.embedDocuments(['a', 'b'])).rejects.toThrow(/returned 5 dimensions, expected 8/);

    const dropping = await embedderThen((req) => {
      const reply = healthy(req) as Exclude<FaultReply, 'hang'>;
      const body = reply.body as { data: unknown[] };
      return { ...reply, body: { ...body, data: body.data.slice(0, 1) } };
    });
    await expect(dropping.embedder.embedDocuments(['a', 'b', 'c'])).rejects.toThrow(/returned 1 embeddings for 3 texts/);
  });

  it("the caller's abort ends the retries at once", async () => {
    // A ten-minute backoff: retries the abort did not end would outlast the test's timeout.
    const { embedder, calls } = await embedderThen(() => openaiErrorReply(503, 'busy'), { initialBackoffMs: 600_000, maxBackoffMs: 600_000 });
    const controller = new AbortController();
    const pending = embedder.embedQuery('x', { signal: controller.signal });
    await vi.waitFor(() => expect(calls()).toBe(1));
    controller.abort(new Error('user stopped'));
    await expect(pending).rejects.toThrow('user stopped');
    expect(calls()).toBe(1);
  });
});

describe('a failing query embedder during a chat turn', () => {
  let fx: FixtureStore;
  beforeAll(async () => {
    fx = await openFixtureStore();
  });
  afterAll(async () => {
    await fx?.close();
  });

  /** The embedder the turn uses: same vector size as the fixture index, then the fault. */
  async function faultyQueryEmbedder(fault: () => FaultReply) {
    server.respond((req) => embeddingsReply(req, vectorOf(fx.embedder.dimensions)));
    const embedder = await OpenAICompatibleEmbedder.create({
      baseURL: `${server.url}/v1`,
      model: 'fake-embedder',
      timeoutMs: 300,
      initialBackoffMs: 10,
      maxBackoffMs: 20,
    });
    server.respond(fault);
    return embedder;
  }

  it.each([
    ['5xx forever', () => openaiErrorReply(503, 'overloaded')],
    ['never answering', () => 'hang' as const],
  ])('%s: the hybrid search falls back to keywords and says so; the turn ends with a cited answer', async (_label, fault) => {
    const embedder = await faultyQueryEmbedder(fault);
    const events = await collectTurn({
      tools: defaultTools,
      question: 'What is the full-load current of the PX-200 motor?',
      services: agentServices({ ...fx.deps, embedder }),
    });

    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'done' });
    const hybrid = eventsOf(events, 'result').find((r) => r.tool === 'hybrid_search')!;
    expect(hybrid.metadata?.degraded).toMatch(/^the query could not be embedded \(.*embedding server .*\): keyword search only$/);
    expect(hybrid.hits.some((h) => h.manualId === 'px-200' && h.page === 1)).toBe(true);
    expect(eventsOf(events, 'status').some((s) => s.tool === 'hybrid_search' && /embedding model failed; searching by keyword only/.test(s.message))).toBe(
      true,
    );
    const answer = eventsOf(events, 'response').at(-1)!;
    expect(answer.text).toContain('6.8 A');
    expect(answer.sources.map((s) => `${s.manualId}:${s.page}`)).toContain('px-200:1');
  });
});
