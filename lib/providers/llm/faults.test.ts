/**
 * Provider faults through the whole turn. The LLM is the real openai-compatible backend
 * behind the real client (timeouts, retries) built by createClientFromConfig, talking to a fake
 * fetch server that misbehaves: 429 then success, 5xx forever, never answering. Retrieval is a real
 * LanceDB store (lib/agent/testing/library). The turn must always end with 'done' and a non-empty
 * answer (a turn that hangs fails on the test timeout); when the model fails the answer is the
 * extractive fallback. How long a turn takes is for `npm run bench`, not these tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentServices } from '@/lib/services/agent-services';
import { eventsOf } from '@/lib/agent/testing/turn';
import { openFixtureStore, type FixtureStore } from '@/lib/agent/testing/library';
import { collectTurn } from '@/lib/agent/testing/turn';
import type { AgentEvent } from '@/lib/agent/events';
import { defaultTools } from '@/tools';
import { loadProviderConfig } from '../roles';
import type { LlmClient } from '../types';
import { createClientFromConfig } from './index';
import { fakeFetch, json, never, openaiAnswer, openaiError, sse, type CapturedRequest } from './testing/helpers';

const QUESTION = 'What is the full-load current of the PX-200 motor?';
const TOOL_NAMES = defaultTools.map((t) => t.name);

// The fake server has no structured outputs; the SDK's warning about it is noise here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
});

const config = loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: 'http://llm.invalid/v1', OPENAI_COMPATIBLE_MODEL: 'fake-model' });

function client(fetch: typeof globalThis.fetch, timeoutMs: number): LlmClient {
  return createClientFromConfig('llm', config, { fetch, timeoutMs, maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 50, random: () => 0 })!;
}

const promptOf = (req: CapturedRequest) => JSON.stringify((req.body as { messages?: unknown })?.messages ?? '');

/** A well-behaved OpenAI-compatible server: decisions, the streamed answer and the answer check. */
function healthy(req: CapturedRequest): Response {
  const body = req.body as { stream?: boolean };
  if (body.stream) {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'fake-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return sse([chunk({ role: 'assistant', content: 'The full-load current is ' }), chunk({ content: '6.8 A [1].' }, 'stop'), '[DONE]']);
  }
  const prompt = promptOf(req);
  if (/Answer sentences/.test(prompt)) return json(openaiAnswer(JSON.stringify({ verdicts: [{ index: 0, supported: true }] })));
  // A decision: answer once something was found, search otherwise.
  const found = /\[1\]/.test(prompt);
  return json(
    openaiAnswer(
      JSON.stringify(
        found
          ? { tool: 'text_response', reason: 'evidence found' }
          : { tool: 'hybrid_search', reason: 'search', inputs: { query: 'PX-200 full-load current' } },
      ),
    ),
  );
}

async function turn(llm: LlmClient): Promise<{ events: AgentEvent[] }> {
  return { events: await collectTurn({ tools: defaultTools, question: QUESTION, services: agentServices({ ...fx.deps, llm }) }) };
}

function expectDoneWithAnswer(events: AgentEvent[]) {
  for (const d of eventsOf(events, 'decision')) expect(TOOL_NAMES).toContain(d.tool);
  expect(events.at(-1)).toMatchObject({ type: 'done', status: 'done' });
  const response = eventsOf(events, 'response').at(-1)!;
  expect(response.text.trim().length).toBeGreaterThan(0);
  return response;
}

/** The status line text_response shows when it falls back (tools/text-response.ts). */
const FALLBACK = /language model failed/i;

describe('LLM provider faults during a turn', () => {
  it('429 then success: retried after Retry-After, the LLM answers', async () => {
    const { fetch, calls } = fakeFetch((req, n) => (n === 1 ? openaiError(429, 'rate limited', { 'retry-after': '0' }) : healthy(req)));
    const { events } = await turn(client(fetch, 5_000));
    const response = expectDoneWithAnswer(events);
    expect(response.text).toContain('6.8 A');
    // The answer was streamed by the model (its first delta), not written extractively; its
    // trailing space waits for the next delta, in case a citation marker follows it.
    expect(eventsOf(events, 'response_delta')[0].delta).toBe('The full-load current is');
    expect(eventsOf(events, 'status').some((s) => FALLBACK.test(s.message))).toBe(false);
    expect(calls.length).toBeGreaterThanOrEqual(2);
  });

  it('5xx forever: every call fails after its retries; the decider falls back to rules and the answer is extractive', async () => {
    const { fetch, calls } = fakeFetch(() => openaiError(503, 'overloaded'));
    const { events } = await turn(client(fetch, 5_000));
    const response = expectDoneWithAnswer(events);
    expect(eventsOf(events, 'status').some((s) => s.tool === 'text_response' && FALLBACK.test(s.message))).toBe(true);
    expect(response.text).toMatch(/6\.8 A/);
    expect(calls.length).toBeGreaterThanOrEqual(3); // retried, not given up at once
  });

  it('a server that never answers: the client timeout ends every call and the turn still ends done, extractively', async () => {
    const { fetch, calls } = fakeFetch(() => never());
    const { events } = await turn(client(fetch, 400));
    const response = expectDoneWithAnswer(events);
    expect(eventsOf(events, 'status').some((s) => s.tool === 'text_response' && FALLBACK.test(s.message))).toBe(true);
    expect(response.text).toMatch(/6\.8 A/);
    expect(calls.length).toBeGreaterThan(0);
  });
});
