/**
 * API keys never reach a log line, a recording or an error message, even when a provider echoes
 * the key or the Authorization header back in its error body (some proxies and servers do).
 * Real HTTP against a local fake server; every console and stdout/stderr write is captured.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GeminiEmbedder } from './embeddings/gemini';
import { OpenAICompatibleEmbedder } from './embeddings/openai-compatible';
import { loadProviderConfig } from './roles';
import { createClientFromConfig, type LlmClientOptions } from './llm';
import type { LlmClient } from './types';

const OPENAI_KEY = 'sk-sentinel-openai-7d1f0c9e4b2a6358';
const GEMINI_KEY = 'AIza-sentinel-gemini-0e9b3c5a71d2f846';
const KEYS = [OPENAI_KEY, GEMINI_KEY];

/** Echoes every credential the request carried, the way a careless server's error page would. */
const credentials = (req: http.IncomingMessage) =>
  `authorization=${req.headers.authorization ?? ''} x-goog-api-key=${req.headers['x-goog-api-key'] ?? ''} url=${req.url}`;

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const model: string = body.model ?? req.url ?? '';
      if (/echo-401|gemini-echo/.test(model))
        return send(401, { error: { message: `Incorrect API key provided: ${credentials(req)}`, code: 401, status: 'UNAUTHENTICATED' } });
      if (/echo-503/.test(model)) return send(503, { error: { message: `Overloaded for ${credentials(req)}`, code: 503 } });
      if (req.url?.endsWith('/embeddings'))
        return send(200, { data: [{ embedding: [0.1, 0.2, 0.3], index: 0 }], model, usage: { prompt_tokens: 1, total_tokens: 1 } });
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        return res.end(`${chunk({ role: 'assistant', content: 'Fine.' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
      }
      send(200, {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Fine.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Everything any logger could print: console methods and raw stdout/stderr writes.
let output: string[] = [];
const savedLevel = process.env.MC_LOG_LEVEL;

beforeEach(() => {
  output = [];
  process.env.MC_LOG_LEVEL = 'debug'; // the chattiest level: retries are logged too
  const keep = (...args: unknown[]) => output.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 10 }))).join(' '));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(keep);
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      keep(String(chunk));
      return true;
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (savedLevel === undefined) delete process.env.MC_LOG_LEVEL;
  else process.env.MC_LOG_LEVEL = savedLevel;
});

function openaiClient(model: string, options: LlmClientOptions = {}) {
  const config = loadProviderConfig({
    OPENAI_COMPATIBLE_BASE_URL: `${base}/v1`,
    OPENAI_COMPATIBLE_API_KEY: OPENAI_KEY,
    OPENAI_COMPATIBLE_MODEL: model,
    DATA_DIR: os.tmpdir(),
  });
  return createClientFromConfig('llm', config, { maxAttempts: 2, initialBackoffMs: 1, ...options })!;
}

function geminiClient(model: string) {
  const config = loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: GEMINI_KEY, GEMINI_MODEL: model, DATA_DIR: os.tmpdir() });
  // Same client as in production; only the host is swapped for the fake server.
  const fetch = ((url: string | URL | Request, init?: RequestInit) =>
    globalThis.fetch(String(url).replace('https://generativelanguage.googleapis.com', base), init)) as typeof globalThis.fetch;
  return createClientFromConfig('llm', config, { maxAttempts: 1, fetch })!;
}

/** The error a call failed with, as a user, a log line or a crash report would show it. */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return `${String(err)}\n${inspect(err, { depth: 10 })}`;
  }
  throw new Error('the call was expected to fail');
}

/** How a one-shot generate call through `client` failed (it must fail). */
const failedGenerate = (client: LlmClient) => failure(() => generateText({ model: client.model, prompt: 'hi', maxRetries: 0 }));

function expectNoKey(text: string, where: string) {
  for (const key of KEYS) expect(text.includes(key), `${where} contains the API key:\n${text.slice(0, 2000)}`).toBe(false);
  expect(text, where).not.toMatch(/Bearer\s+sk-/);
}

describe('API keys in logs and errors', () => {
  it('successful generate and stream calls log one line each, without the key', async () => {
    const client = openaiClient('ok-model');
    await generateText({ model: client.model, prompt: 'hi', maxRetries: 0 });
    const stream = streamText({ model: client.model, prompt: 'hi', maxRetries: 0 });
    expect(await stream.text).toBe('Fine.');
    const lines = output.join('\n');
    expect(lines.match(/"msg":"llm\.call"/g)).toHaveLength(2);
    expectNoKey(lines, 'log output');
  });

  it('a 401 that echoes the key and Authorization header: not in the log, not in the error', async () => {
    const error = await failedGenerate(openaiClient('echo-401'));
    expect(error).toContain('401');
    expect(error).toContain('[redacted]'); // the rest of the provider's message survives
    expectNoKey(error, 'the thrown error');
    expect(output.join('\n')).toMatch(/"outcome":"error"/);
    expectNoKey(output.join('\n'), 'log output');
  });

  it('a 503 echoing the key, retried (debug retry lines), then given up', async () => {
    const error = await failedGenerate(openaiClient('echo-503'));
    expect(error).toContain('gave up after 2 attempts');
    expectNoKey(error, 'the thrown error');
    expect(output.join('\n')).toMatch(/"msg":"llm\.retry"/);
    expectNoKey(output.join('\n'), 'log output');
  });

  it('a streamed call that fails the same way', async () => {
    const client = openaiClient('echo-401');
    const error = await failure(async () => {
      let reported: unknown;
      const res = streamText({ model: client.model, prompt: 'hi', maxRetries: 0, onError: ({ error }) => void (reported = error) });
      await Promise.resolve(res.text).catch(() => {});
      throw reported; // what streamText hands to the app (the chat turn logs and shows it)
    });
    expect(error).toContain('401');
    expectNoKey(error, 'the reported error');
    expectNoKey(output.join('\n'), 'log output');
  });

  it('Gemini (key in the x-goog-api-key header) echoing it back', async () => {
    const error = await failedGenerate(geminiClient('gemini-echo'));
    expect(error).toContain('401');
    expectNoKey(error, 'the thrown error');
    expectNoKey(output.join('\n'), 'log output');
  });

  it('recordings (MC_LLM_RECORD) hold no key', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-rec-')), 'calls.jsonl');
    const client = openaiClient('ok-model', { record: file });
    await generateText({ model: client.model, prompt: 'hi', maxRetries: 0 });
    const recorded = fs.readFileSync(file, 'utf8');
    expect(recorded).toContain('ok-model');
    expectNoKey(recorded, 'the recording');
  });

  it('the OpenAI-compatible embedder: an echoed key stays out of its error', async () => {
    const error = await failure(() => OpenAICompatibleEmbedder.create({ baseURL: `${base}/v1`, apiKey: OPENAI_KEY, model: 'echo-401', maxAttempts: 1 }));
    expect(error).toContain('401');
    expectNoKey(error, 'the thrown error');
    expectNoKey(output.join('\n'), 'log output');
  });

  it('the Gemini embedder: an echoed key stays out of its error', async () => {
    const embedder = new GeminiEmbedder({ apiKey: GEMINI_KEY, model: 'gemini-echo', baseURL: `${base}/v1beta`, maxAttempts: 1 });
    const error = await failure(() => embedder.embedQuery('hi'));
    expect(error).toContain('Incorrect API key');
    expectNoKey(error, 'the thrown error');
    const batch = await failure(() => embedder.embedDocuments(['a', 'b']));
    expectNoKey(batch, 'the thrown error');
  });
});
