/**
 * One retry policy for every model call: a provider answering 503 is called exactly the configured
 * number of times in total (MC_LLM_MAX_ATTEMPTS for LLM/VLM, maxAttempts for the embedders), never
 * attempts × the AI SDK's own retries. Real providers talk to a real HTTP server on loopback; the
 * backoff is injected, so nothing sleeps.
 */
import { generateText, streamText, APICallError } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejection } from '@/test/rejection';
import { openaiErrorReply, startFaultServer, type FaultServer } from '@/test/fault-server';
import { loadProviderConfig } from './roles';
import { createClientFromConfig, llmOptionsFromEnv } from './llm';
import { GeminiEmbedder } from './embeddings/gemini';
import { OpenAICompatibleEmbedder } from './embeddings/openai-compatible';
import { nextRetry, retryPolicy, withRetry } from './retry';

const geminiUnavailable = { status: 503, body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } };

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => geminiUnavailable);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

/** Sends whatever the provider asks for to the loopback server, keeping the path. */
const toServer: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return fetch(`${server.url}${url.pathname}${url.search}`, init);
};

/** A backoff that records its delay and returns at once. */
function recordedSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

const configs = {
  gemini: () => loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-test-key', LLM_PROVIDER: 'gemini' }),
  'openai-compatible': () => loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_COMPATIBLE_MODEL: 'llama3.2' }),
};

describe.each(Object.keys(configs) as Array<keyof typeof configs>)('a %s LLM answering 503', (provider) => {
  for (const maxAttempts of ['1', '4']) {
    it(`is called MC_LLM_MAX_ATTEMPTS=${maxAttempts} times in total, with the SDK's default retries left on`, async () => {
      if (provider === 'openai-compatible') server.respond(() => openaiErrorReply(503, 'overloaded'));
      else server.respond(() => geminiUnavailable);
      const { delays, sleep } = recordedSleep();
      const options = { ...llmOptionsFromEnv({ MC_LLM_MAX_ATTEMPTS: maxAttempts }), sleep };
      const client = createClientFromConfig('llm', configs[provider](), { ...options, fetch: toServer })!;
      expect(client.provider).toBe(provider);

      // No maxRetries: the SDK's default (2) would triple the calls if it retried on top.
      const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
      expect(err).toMatchObject({ code: 'llm:unavailable', statusCode: 503, attempts: Number(maxAttempts) });
      expect(server.requests).toHaveLength(Number(maxAttempts));
      expect(delays).toHaveLength(Number(maxAttempts) - 1);

      server.requests.length = 0;
      let streamError: unknown;
      const stream = streamText({ model: client.model, prompt: 'hi', onError: ({ error }) => void (streamError = error) });
      await rejection(Promise.resolve(stream.text));
      expect(streamError).toMatchObject({ code: 'llm:unavailable', attempts: Number(maxAttempts) });
      expect(server.requests).toHaveLength(Number(maxAttempts));
    });
  }
});

describe('the embedders answering 503', () => {
  it('Gemini: maxAttempts requests in total, the SDK does not retry on top', async () => {
    server.respond(() => geminiUnavailable);
    const { delays, sleep } = recordedSleep();
    const embedder = new GeminiEmbedder({ apiKey: 'AIza-test-key', model: 'gemini-embedding-001', fetch: toServer, maxAttempts: 3, sleep });
    await expect(embedder.embedQuery('which fuse?')).rejects.toThrow(
      /^Gemini embeddings \(gemini-embedding-001\) failed: .*overloaded.*\(gave up after 3 attempts\)$/,
    );
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('OpenAI-compatible: maxAttempts requests in total', async () => {
    server.respond((req) =>
      (req.body as { input: string[] }).input[0] === 'dimension probe'
        ? { status: 200, body: { data: [{ embedding: [1, 0], index: 0 }] } }
        : openaiErrorReply(503, 'overloaded'),
    );
    const { delays, sleep } = recordedSleep();
    const embedder = await OpenAICompatibleEmbedder.create({ baseURL: `${server.url}/v1`, model: 'm', maxAttempts: 4, sleep });
    server.requests.length = 0;
    await expect(embedder.embedQuery('which fuse?')).rejects.toThrow(/\(gave up after 4 attempts\)$/);
    expect(server.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
  });
});

describe('nextRetry', () => {
  const apiError = (statusCode: number, headers?: Record<string, string>) =>
    new APICallError({ message: `HTTP ${statusCode}`, url: 'http://x', requestBodyValues: {}, statusCode, responseHeaders: headers });
  const policy = retryPolicy({ maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, random: () => 0.5 });

  it('retries transient errors with growing backoff until the last attempt', () => {
    expect(nextRetry(1, apiError(503), policy)).toMatchObject({ retry: true, delayMs: 75 });
    expect(nextRetry(2, apiError(429), policy)).toMatchObject({ retry: true, delayMs: 150 });
    expect(nextRetry(3, apiError(503), policy)).toMatchObject({ retry: false, why: 'exhausted' });
  });

  it('never retries a 4xx, and refuses a Retry-After longer than it waits', () => {
    expect(nextRetry(1, apiError(400), policy)).toMatchObject({ retry: false, why: 'permanent' });
    expect(nextRetry(1, apiError(429, { 'retry-after': '3600' }), policy)).toMatchObject({ retry: false, why: 'retry-after' });
    expect(nextRetry(1, apiError(429, { 'retry-after': '2' }), policy)).toMatchObject({ retry: true, delayMs: 2000 });
  });

  it('lets the caller call an error transient (an embedder timeout) or not (a malformed answer)', () => {
    expect(nextRetry(1, new DOMException('timed out', 'AbortError'), policy, true)).toMatchObject({ retry: true });
    expect(nextRetry(1, undefined, policy, false)).toMatchObject({ retry: false, why: 'permanent' });
  });
});

describe('withRetry', () => {
  const apiError = (statusCode: number) => new APICallError({ message: `HTTP ${statusCode}`, url: 'http://x', requestBodyValues: {}, statusCode });

  it('waits between transient failures and returns the first success', async () => {
    const { delays, sleep } = recordedSleep();
    const policy = retryPolicy({ maxAttempts: 3, initialBackoffMs: 100, random: () => 0.5, sleep });
    const seen: number[] = [];
    const value = await withRetry(policy, async (n) => (seen.push(n), n < 3 ? { ok: false, cause: apiError(503) } : { ok: true, value: 'done' }));
    expect(value).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(delays).toEqual([75, 150]);
  });

  it("gives up with the caller's error, and an attempt that throws ends the loop at once", async () => {
    const policy = retryPolicy({ maxAttempts: 5, sleep: recordedSleep().sleep });
    const giveUp = (await rejection(
      withRetry(policy, async () => ({ ok: false, cause: apiError(400) }), { giveUp: (_f, d, n) => new Error(`${d.why} after ${n}`) }),
    )) as Error;
    expect(giveUp.message).toBe('permanent after 1');
    let calls = 0;
    const thrown = (await rejection(withRetry(policy, async () => (calls++, Promise.reject(new Error('malformed')))))) as Error;
    expect([thrown.message, calls]).toEqual(['malformed', 1]);
  });

  it('maps a cancelled wait through onCancel', async () => {
    const controller = new AbortController();
    const policy = retryPolicy({ maxAttempts: 3, sleep: async () => controller.abort(new Error('deadline')) });
    const cancelled = (await rejection(
      withRetry(policy, async () => ({ ok: false, cause: apiError(503) }), {
        signal: controller.signal,
        onCancel: (e) => new Error(`mapped: ${(e as Error).message}`),
      }),
    )) as Error;
    expect(cancelled.message).toBe('mapped: deadline');
  });
});
