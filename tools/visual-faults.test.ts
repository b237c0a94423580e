/**
 * Vision model faults. The VLM is the real openai-compatible backend behind the real LLM
 * client (timeout, retries) pointed at a real HTTP server on loopback that answers 429, 5xx or
 * nothing. Retrieval is a real LanceDB store (lib/agent/testing/library). A transient fault is
 * retried and the VLM reading is used; a lasting one ends visual_interpretation with the reason
 * (once, not retried again this turn), and the turn still ends with an answer from the passages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { eventsOf } from '@/lib/agent/testing/turn';
import { openFixtureStore, type FixtureStore } from '@/lib/agent/testing/library';
import { collectTurn } from '@/lib/agent/testing/turn';
import { loadProviderConfig } from '@/lib/providers/roles';
import { createClientFromConfig } from '@/lib/providers/llm';
import { openaiErrorReply, startFaultServer, type FaultHandler, type FaultServer } from '@/test/fault-server';

const QUESTION = 'Which wire goes to terminal N in the wiring diagram?';

let fx: FixtureStore;
let server: FaultServer;
beforeAll(async () => {
  fx = await openFixtureStore();
  server = await startFaultServer(() => openaiErrorReply(503, 'not configured'));
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});

/** A chat-completions answer, as an OpenAI-compatible vision server sends it. */
const reading = (text: string) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-vlm',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  },
});

async function turnWithVlm(handler: FaultHandler) {
  server.respond(handler);
  const start = server.requests.length;
  const config = loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: `${server.url}/v1`, OPENAI_COMPATIBLE_MODEL: 'fake-vlm', LLM_PROVIDER: 'none' });
  const vlm = createClientFromConfig('vlm', config, { timeoutMs: 500, maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 20, random: () => 0 })!;
  // No deadline of its own: a turn that hangs fails on the test's timeout.
  const events = await collectTurn({
    tools: defaultTools,
    question: QUESTION,
    services: agentServices({ ...fx.deps, llm: null, vlm, pageImage: async () => Buffer.from('png') }),
  });
  return { events, vlmCalls: server.requests.slice(start).filter((r) => r.path.endsWith('/chat/completions')).length };
}

describe('vision model faults during a turn', () => {
  it('429 then a reading: retried after Retry-After, and the VLM reading is cited', async () => {
    const { events, vlmCalls } = await turnWithVlm((_req, n) =>
      n === 1 ? openaiErrorReply(429, 'rate limited', { 'retry-after': '0' }) : reading('Terminal N takes the blue wire.'),
    );
    expect(vlmCalls).toBe(2);
    expect(eventsOf(events, 'decision').map((d) => d.tool)).toEqual(['hybrid_search', 'visual_interpretation', 'text_response']);
    expect(eventsOf(events, 'result').find((r) => r.tool === 'visual_interpretation')?.hits[0]).toMatchObject({ manualId: 'px-200', page: 4 });
    expect(eventsOf(events, 'response').at(-1)!.text).toContain('Terminal N takes the blue wire');
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'done' });
  });

  // A 5xx is retried (3 attempts); a hung call uses up the client's deadline, which covers every
  // attempt (lib/providers/llm/client.ts), so it is asked once.
  it.each([
    ['5xx forever', (() => openaiErrorReply(503, 'vision model overloaded')) as FaultHandler, /vision model overloaded/, 3],
    ['a server that never answers', (() => 'hang') as FaultHandler, /timed out|timeout/i, 1],
  ])('%s: visual_interpretation says why and bows out; the answer comes from the passages', async (_label, handler, reason, calls) => {
    const { events, vlmCalls } = await turnWithVlm(handler);
    // The client's attempts, once: the failed tool is not run again this turn.
    expect(vlmCalls).toBe(calls);
    expect(eventsOf(events, 'decision').filter((d) => d.tool === 'visual_interpretation')).toHaveLength(1);
    expect(
      eventsOf(events, 'status').some((s) => s.tool === 'visual_interpretation' && /vision model failed; answering from the text passages/.test(s.message)),
    ).toBe(true);
    const error = eventsOf(events, 'error').find((e) => e.tool === 'visual_interpretation')!;
    expect(error.message).toMatch(/^the vision model could not read page 4 of PX-200 Pump Manual: /);
    expect(error.message).toMatch(reason);
    expect(error.recoverable).toBe(false);

    const answer = eventsOf(events, 'response').at(-1)!;
    expect(answer.text).toContain('terminal N the blue wire');
    expect(answer.sources.some((s) => s.manualId === 'px-200' && s.page === 4)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'done' });
  });
});
