/**
 * The middleware: retries, timeouts, aborts, logging and the vision guard, proven with flaky
 * fakes (a fake fetch behind the real OpenAI-compatible provider, or a MockLanguageModelV3).
 */
import { generateText, Output, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { sleep } from '@/lib/runtime/abort';
import { z } from 'zod';
import { rejection } from '@/test/rejection';
import { createLlmClient, type LlmClientOptions } from './client';
import { LlmCallError } from './errors';
import { createLogger, logLevelFromEnv } from './log';
import { createOpenAICompatibleModel } from './openai-compatible';
import { backoffDelay, classifyError, retryAfterMs } from '../retry';
import type { StreamPart } from './sdk-types';
import { captureLogs, fakeFetch, json, never, openaiAnswer, openaiError, PNG, streamOf, textParts, usage } from './testing/helpers';
import { visionPrompt } from './messages';
import { APICallError } from 'ai';

const fast: LlmClientOptions = { initialBackoffMs: 1, maxBackoffMs: 5, timeoutMs: 5_000 };

function openaiClient(respond: Parameters<typeof fakeFetch>[0], options: LlmClientOptions = {}) {
  const { fetch, calls } = fakeFetch(respond);
  const logs = captureLogs('debug');
  const model = createOpenAICompatibleModel({ baseURL: 'http://localhost:11434/v1', modelId: 'llama3.2', fetch });
  const client = createLlmClient(model, { provider: 'openai-compatible', logger: logs.logger, ...fast, ...options });
  return { client, calls, logs, callLines: () => logs.lines.filter((l) => l.msg === 'llm.call') };
}

const apiError = (statusCode: number, headers?: Record<string, string>) =>
  new APICallError({ message: `HTTP ${statusCode}`, url: 'http://x/chat/completions', requestBodyValues: {}, statusCode, responseHeaders: headers });

describe('retries', () => {
  it('retries 429 twice (Retry-After: 0) and returns the third answer', async () => {
    const { client, calls, callLines, logs } = openaiClient((_req, n) =>
      n <= 2 ? openaiError(429, 'rate limited', { 'retry-after': '0' }) : json(openaiAnswer('third time lucky')),
    );
    // Default SDK maxRetries (2) on purpose: the middleware owns retries, so there are exactly 3 calls.
    const res = await generateText({ model: client.model, prompt: 'hi' });
    expect(res.text).toBe('third time lucky');
    expect(calls).toHaveLength(3);
    expect(callLines()).toHaveLength(1);
    expect(callLines()[0]).toMatchObject({ outcome: 'ok', attempts: 3, model: 'llama3.2', provider: 'openai-compatible', inputTokens: 10, outputTokens: 5 });
    expect(logs.lines.filter((l) => l.msg === 'llm.retry').map((l) => l.delayMs)).toEqual([0, 0]);
  });

  it('does not retry a 400', async () => {
    const { client, calls, callLines } = openaiClient(() => openaiError(400, 'bad request: unknown field'));
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(calls).toHaveLength(1);
    expect(LlmCallError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ code: 'llm:bad_request', statusCode: 400, attempts: 1, transient: false });
    expect(callLines()[0]).toMatchObject({ outcome: 'error', attempts: 1, errorCode: 'llm:bad_request', statusCode: 400 });
  });

  it('does not retry 401 and reports it as an auth problem', async () => {
    const { client, calls } = openaiClient(() => openaiError(401, 'invalid api key'));
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(calls).toHaveLength(1);
    expect(err).toMatchObject({ code: 'llm:auth', statusCode: 401 });
  });

  it('gives up on a 500 after maxAttempts, and the SDK does not retry on top', async () => {
    const { client, calls, callLines } = openaiClient(() => openaiError(500, 'internal error'));
    const err = await rejection(generateText({ model: client.model, prompt: 'hi', maxRetries: 2 }));
    expect(calls).toHaveLength(3);
    expect(err).toMatchObject({ code: 'llm:unavailable', statusCode: 500, attempts: 3, transient: true });
    expect((err as Error).message).toMatch(/gave up after 3 attempts/);
    expect(callLines()).toEqual([expect.objectContaining({ outcome: 'error', attempts: 3 })]);
  });

  it('honours maxAttempts', async () => {
    const { client, calls } = openaiClient(() => openaiError(503, 'overloaded'), { maxAttempts: 5 });
    await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(calls).toHaveLength(5);
  });

  it('retries a network error (fetch failed / ECONNRESET)', async () => {
    const { client, calls } = openaiClient((_req, n) => {
      if (n === 1) throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
      return json(openaiAnswer('recovered'));
    });
    const res = await generateText({ model: client.model, prompt: 'hi' });
    expect(res.text).toBe('recovered');
    expect(calls).toHaveLength(2);
  });

  it('waits for Retry-After when the server sends one', async () => {
    const slept: number[] = [];
    const { client, calls } = openaiClient((_req, n) => (n === 1 ? openaiError(429, 'slow down', { 'retry-after': '0.15' }) : json(openaiAnswer('ok'))), {
      sleep: async (ms) => void slept.push(ms),
    });
    await generateText({ model: client.model, prompt: 'hi' });
    expect(slept).toEqual([150]); // the server's 150 ms, not the (1–5 ms) backoff
    expect(calls).toHaveLength(2);
  });

  it('fails at once when Retry-After is longer than it is willing to wait', async () => {
    const slept: number[] = [];
    const { client, calls } = openaiClient(() => openaiError(429, 'quota', { 'retry-after': '120' }), { sleep: async (ms) => void slept.push(ms) });
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(slept).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(err).toMatchObject({ code: 'llm:rate_limit', statusCode: 429 });
    expect((err as Error).message).toMatch(/Retry-After exceeds/);
  });
});

describe('timeouts and aborts', () => {
  it('aborts a call that takes longer than timeoutMs with a clear timeout error', async () => {
    let sawAbort = false;
    const { client, calls, callLines } = openaiClient(
      (_req, _n, signal) => {
        signal?.addEventListener('abort', () => (sawAbort = true));
        return never();
      },
      { timeoutMs: 50 },
    );
    // A deadline that never fired would leave the call hanging: the test would time out.
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(calls).toHaveLength(1); // a timeout is final: the deadline covers all attempts
    expect(sawAbort).toBe(true); // the HTTP request itself was cancelled
    expect(err).toMatchObject({ code: 'llm:timeout', transient: true });
    expect((err as Error).message).toMatch(/did not answer within 50 ms/);
    expect(callLines()[0]).toMatchObject({ outcome: 'timeout', errorCode: 'llm:timeout' });
  });

  it('times out even when the model ignores the abort signal', async () => {
    const model = new MockLanguageModelV3({ doGenerate: () => new Promise(() => {}) });
    const client = createLlmClient(model, { ...fast, timeoutMs: 30 });
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(err).toMatchObject({ code: 'llm:timeout' });
  });

  it('the deadline covers backoff: a slow retry loop ends as a timeout', async () => {
    const { client, calls } = openaiClient(() => openaiError(503, 'busy'), { timeoutMs: 60, initialBackoffMs: 10_000, maxBackoffMs: 10_000 });
    const err = await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(err).toMatchObject({ code: 'llm:timeout' });
    expect(calls).toHaveLength(1);
  });

  it('does not retry when the caller aborts, and rethrows the AbortError', async () => {
    const { client, calls, callLines } = openaiClient(() => never());
    const ctrl = new AbortController();
    const pending = rejection(generateText({ model: client.model, prompt: 'hi', abortSignal: ctrl.signal }));
    // Aborted while the request is in flight (it never answers).
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    ctrl.abort();
    const err = await pending;
    expect((err as Error).name).toBe('AbortError');
    expect(LlmCallError.isInstance(err)).toBe(false);
    expect(calls).toHaveLength(1);
    expect(callLines()[0]).toMatchObject({ outcome: 'aborted', attempts: 1 });
  });

  it('an abort during backoff stops at once', async () => {
    const ctrl = new AbortController();
    // The real sleep, with a ten-minute backoff the caller aborts as soon as it starts: a backoff the
    // abort did not cut short would outlast the test's timeout.
    const { client, calls } = openaiClient(() => openaiError(503, 'busy'), {
      initialBackoffMs: 600_000,
      maxBackoffMs: 600_000,
      sleep: (ms, signal) => {
        ctrl.abort();
        return sleep(ms, signal);
      },
    });
    const err = await rejection(generateText({ model: client.model, prompt: 'hi', abortSignal: ctrl.signal }));
    expect((err as Error).name).toBe('AbortError');
    expect(calls).toHaveLength(1);
  });

  it('an already aborted signal makes no call', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 1), warnings: [] }),
    });
    const client = createLlmClient(model, fast);
    const ctrl = new AbortController();
    ctrl.abort();
    await rejection(generateText({ model: client.model, prompt: 'hi', abortSignal: ctrl.signal }));
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('streaming', () => {
  const streamModel = (attempts: Array<() => Promise<{ stream: ReadableStream<StreamPart> }>>) => {
    let n = 0;
    return new MockLanguageModelV3({ doStream: () => attempts[Math.min(n++, attempts.length - 1)]() });
  };

  it('retries a stream that fails before its first content chunk', async () => {
    const model = streamModel([
      async () => ({ stream: streamOf([{ type: 'stream-start', warnings: [] }], { error: apiError(503) }) }),
      async () => {
        throw apiError(429, { 'retry-after': '0' });
      },
      async () => ({ stream: streamOf(textParts(['Check ', 'fuse F1.'])) }),
    ]);
    const logs = captureLogs();
    const client = createLlmClient(model, { ...fast, logger: logs.logger });
    const res = streamText({ model: client.model, prompt: 'no power' });
    expect(await res.text).toBe('Check fuse F1.');
    expect(model.doStreamCalls).toHaveLength(3);
    expect(logs.lines).toEqual([expect.objectContaining({ msg: 'llm.call', mode: 'stream', outcome: 'ok', attempts: 3, inputTokens: 7, outputTokens: 2 })]);
  });

  it('retries when the error arrives as an error part before any content', async () => {
    const model = streamModel([
      async () => ({
        stream: streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'error', error: apiError(502) },
        ]),
      }),
      async () => ({ stream: streamOf(textParts(['ok'])) }),
    ]);
    const client = createLlmClient(model, fast);
    expect(await streamText({ model: client.model, prompt: 'x' }).text).toBe('ok');
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('does not retry once content has been streamed', async () => {
    const model = streamModel([
      async () => ({ stream: streamOf(textParts(['partial ']).slice(0, 3), { error: apiError(503) }) }),
      async () => ({ stream: streamOf(textParts(['should not be used'])) }),
    ]);
    const logs = captureLogs();
    const client = createLlmClient(model, { ...fast, logger: logs.logger });
    const errors: unknown[] = [];
    const res = streamText({ model: client.model, prompt: 'x', onError: ({ error }) => void errors.push(error) });
    const text = await Promise.resolve(res.text).catch(() => '');
    expect(text).not.toContain('should not be used');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(logs.lines[0]).toMatchObject({ outcome: 'error', attempts: 1 });
  });

  it('times out a stream that stalls between chunks', async () => {
    const model = streamModel([async () => ({ stream: streamOf(textParts(['first']).slice(0, 3), 'hang') })]);
    const client = createLlmClient(model, { ...fast, timeoutMs: 50 });
    const errors: unknown[] = [];
    const res = streamText({ model: client.model, prompt: 'x', onError: ({ error }) => void errors.push(error) });
    await Promise.resolve(res.text).catch(() => '');
    expect(errors[0]).toMatchObject({ code: 'llm:timeout' });
    expect((errors[0] as Error).message).toMatch(/stalled/);
  });

  it('a caller abort mid-stream ends the stream as aborted, without retry', async () => {
    const model = streamModel([async () => ({ stream: streamOf(textParts(['first ']).slice(0, 3), 'hang') })]);
    const logs = captureLogs();
    const client = createLlmClient(model, { ...fast, logger: logs.logger });
    const ctrl = new AbortController();
    const res = streamText({ model: client.model, prompt: 'x', abortSignal: ctrl.signal });
    const types: string[] = [];
    for await (const part of res.fullStream) {
      types.push(part.type);
      if (part.type === 'text-delta') ctrl.abort();
    }
    expect(types).toContain('abort');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(logs.lines[0]).toMatchObject({ outcome: 'aborted' });
  });

  it('does not cut off a long stream whose chunks keep coming', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const parts = textParts(Array.from({ length: 6 }, (_, i) => `${i} `));
      let i = 0;
      const slow = new ReadableStream<StreamPart>({
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 15));
          if (i < parts.length) controller.enqueue(parts[i++]);
          else controller.close();
        },
      });
      const client = createLlmClient(new MockLanguageModelV3({ doStream: async () => ({ stream: slow }) }), { ...fast, timeoutMs: 60 });
      const text = streamText({ model: client.model, prompt: 'x' }).text;
      // First content after 45 ms, the whole stream takes 165 ms (eleven 15 ms gaps), far past the
      // 60 ms timeout: only the gaps count once content flows. Fake timers: no wall clock involved.
      for (let t = 0; t < 11; t++) await vi.advanceTimersByTimeAsync(15);
      expect(await text).toBe('0 1 2 3 4 5 ');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('logging', () => {
  it('writes one JSON line per call and never the API key', async () => {
    const key = 'sk-very-secret-key-abcdef123456';
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', secrets: [key], write: (l) => lines.push(l) });
    const { fetch } = fakeFetch(() => openaiError(400, `Incorrect API key provided: ${key}`));
    const model = createOpenAICompatibleModel({ baseURL: 'http://localhost:1/v1', apiKey: key, modelId: 'm', fetch });
    const client = createLlmClient(model, { ...fast, provider: 'openai-compatible', logger });
    await rejection(generateText({ model: client.model, prompt: 'hi' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).toContain('[redacted]');
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 'error', msg: 'llm.call', model: 'm', outcome: 'error', attempts: 1 });
    expect(typeof entry.latencyMs).toBe('number');
  });

  it('is silent under vitest unless MC_LOG_LEVEL says otherwise', () => {
    expect(logLevelFromEnv({ VITEST: 'true' })).toBe('silent');
    expect(logLevelFromEnv({ VITEST: 'true', MC_LOG_LEVEL: 'debug' })).toBe('debug');
    expect(logLevelFromEnv({})).toBe('info');
    const lines: string[] = [];
    createLogger({ level: 'warn', write: (l) => lines.push(l) }).info('dropped');
    expect(lines).toEqual([]);
  });
});

describe('vision and structured output', () => {
  it('a text-only client rejects image input without calling the model', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 1), warnings: [] }),
    });
    const client = createLlmClient(model, fast);
    const err = await rejection(generateText({ model: client.model, messages: visionPrompt('what is this?', [PNG]) }));
    expect(err).toMatchObject({ code: 'llm:vision_unsupported' });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a vision client passes the page image to the model as an image/png file part', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'a pinout' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(1, 1),
        warnings: [],
      }),
    });
    const client = createLlmClient(model, { ...fast, vision: true });
    const res = await generateText({ model: client.model, messages: visionPrompt('what is this?', [PNG]) });
    expect(res.text).toBe('a pinout');
    const content = model.doGenerateCalls[0].prompt[0].content as Array<{ type: string; mediaType?: string }>;
    expect(content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
  });

  it('structured output (Output.object) works through the middleware', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: '{"tool":"hybrid_search","query":"E04"}' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(20, 9),
        warnings: [],
      }),
    });
    const client = createLlmClient(model, fast);
    const res = await generateText({
      model: client.model,
      output: Output.object({ schema: z.object({ tool: z.string(), query: z.string() }) }),
      prompt: 'pick a tool',
    });
    expect(res.output).toEqual({ tool: 'hybrid_search', query: 'E04' });
    expect(model.doGenerateCalls[0].responseFormat).toMatchObject({ type: 'json' });
  });
});

describe('retry policy units', () => {
  it('classifies errors', () => {
    expect(classifyError(apiError(429))).toMatchObject({ code: 'llm:rate_limit', retryable: true });
    expect(classifyError(apiError(503))).toMatchObject({ code: 'llm:unavailable', retryable: true });
    expect(classifyError(apiError(404))).toMatchObject({ code: 'llm:bad_request', retryable: false });
    expect(classifyError(apiError(403))).toMatchObject({ code: 'llm:auth', retryable: false });
    expect(classifyError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toMatchObject({ retryable: true });
    expect(classifyError(new Error('boom'))).toMatchObject({ code: 'llm:provider', retryable: false });
  });

  it('backs off exponentially with jitter, capped, and prefers Retry-After', () => {
    const opts = { initialBackoffMs: 100, maxBackoffMs: 1_000, maxRetryAfterMs: 5_000 };
    const lo = { ...opts, random: () => 0 };
    const hi = { ...opts, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, new Error('x'), lo))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, new Error('x'), hi))).toEqual([100, 200, 400, 800, 1_000]);
    expect(backoffDelay(1, apiError(429, { 'retry-after': '2' }), lo)).toBe(2_000);
    expect(backoffDelay(1, apiError(429, { 'retry-after-ms': '250' }), lo)).toBe(250);
    expect(backoffDelay(1, apiError(429, { 'retry-after': '60' }), lo)).toBeUndefined();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(apiError(429, { 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3_000);
  });
});
