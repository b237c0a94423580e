/**
 * Record / replay: a call recorded against a fake is served later without any model call, keyed
 * by model + prompt + settings; misses fail loudly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateText, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejection } from '@/test/rejection';
import { loadProviderConfig } from '../roles';
import { normalizeRequest, readCassette, requestKey } from './cassette';
import { createLlmClient } from './client';
import { LlmCallError } from './errors';
import { createClientFromConfig } from './index';
import { visionPrompt } from './messages';
import { createOpenAICompatibleModel } from './openai-compatible';
import type { CallOptions } from './sdk-types';
import { captureLogs, fakeFetch, json, openaiAnswer, PNG, streamOf, textParts, usage } from './testing/helpers';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-cassette-'));
  file = path.join(dir, 'nested', 'calls.jsonl');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A model that fails the test if anything reaches it. */
const forbidden = (modelId = 'llama3.2') =>
  new MockLanguageModelV3({
    modelId,
    doGenerate: () => {
      throw new Error('network call during replay');
    },
    doStream: () => {
      throw new Error('network call during replay');
    },
  });

describe('record then replay', () => {
  it('replays a recorded generate call without calling the model', async () => {
    const key = 'sk-should-never-be-recorded-987654';
    const { fetch, calls } = fakeFetch(() => json(openaiAnswer('Replace the filter every 500 h.')));
    const live = createLlmClient(createOpenAICompatibleModel({ baseURL: 'http://localhost:11434/v1', apiKey: key, modelId: 'llama3.2', fetch }), {
      provider: 'openai-compatible',
      record: file,
    });
    const recorded = await generateText({ model: live.model, system: 'Be brief.', prompt: 'Filter interval?', temperature: 0 });
    expect(calls).toHaveLength(1);

    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    const [entry] = readCassette(file);
    expect(entry).toMatchObject({ v: 1, role: 'llm', provider: 'openai-compatible', modelId: 'llama3.2', mode: 'generate' });
    expect(entry.request).toMatchObject({ model: 'llama3.2', settings: { temperature: 0 } });
    expect(JSON.stringify(entry.request.prompt)).toContain('Filter interval?');
    expect(entry.response.content).toEqual([{ type: 'text', text: 'Replace the filter every 500 h.' }]);
    expect(entry.response.usage.inputTokens.total).toBe(10);
    expect(entry.response.finishReason.unified).toBe('stop');
    expect(requestKey(entry.request)).toBe(entry.key); // the key is a pure function of the stored request

    const logs = captureLogs();
    const replay = createLlmClient(forbidden(), { replay: file, logger: logs.logger });
    const again = await generateText({ model: replay.model, system: 'Be brief.', prompt: 'Filter interval?', temperature: 0 });
    expect(again.text).toBe(recorded.text);
    expect(again.usage.inputTokens).toBe(10);
    expect(again.finishReason).toBe('stop');
    expect(logs.lines[0]).toMatchObject({ outcome: 'replayed', attempts: 0, inputTokens: 10 });
  });

  it('fails clearly on a request that is not in the recording', async () => {
    const live = createLlmClient(
      new MockLanguageModelV3({
        modelId: 'llama3.2',
        doGenerate: async () => ({ content: [{ type: 'text', text: 'A' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(1, 1), warnings: [] }),
      }),
      { record: file },
    );
    await generateText({ model: live.model, prompt: 'question one' });

    const model = forbidden();
    const replay = createLlmClient(model, { replay: file });
    const err = await rejection(generateText({ model: replay.model, prompt: 'question two' }));
    expect(LlmCallError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ code: 'llm:replay_miss' });
    const msg = (err as Error).message;
    expect(msg).toContain(file);
    expect(msg).toContain('question two');
    expect(msg).toContain('MC_LLM_RECORD');
    expect(model.doGenerateCalls).toHaveLength(0);

    // Same prompt, different settings: also a miss (settings are part of the key).
    const err2 = await rejection(generateText({ model: replay.model, prompt: 'question one', temperature: 0.9 }));
    expect(err2).toMatchObject({ code: 'llm:replay_miss' });
    // Same prompt and settings but another model: a miss as well.
    const err3 = await rejection(generateText({ model: createLlmClient(forbidden('other-model'), { replay: file }).model, prompt: 'question one' }));
    expect(err3).toMatchObject({ code: 'llm:replay_miss' });
  });

  it('replays a streamed call as the same chunks, and also under generateText', async () => {
    const deltas = ['Turn the ', 'dial to ', 'position 3.'];
    const live = createLlmClient(new MockLanguageModelV3({ modelId: 'gemini-2.5-flash', doStream: async () => ({ stream: streamOf(textParts(deltas)) }) }), {
      provider: 'gemini',
      record: file,
    });
    const first = streamText({ model: live.model, prompt: 'How to set eco mode?' });
    const liveChunks: string[] = [];
    for await (const t of first.textStream) liveChunks.push(t);
    expect(liveChunks).toEqual(deltas);
    const [entry] = readCassette(file);
    expect(entry.mode).toBe('stream');
    expect(entry.response.content).toEqual([{ type: 'text', text: deltas.join('') }]);
    expect(entry.response.chunks?.length).toBe(textParts(deltas).length);

    const replay = createLlmClient(forbidden('gemini-2.5-flash'), { replay: file });
    const again = streamText({ model: replay.model, prompt: 'How to set eco mode?' });
    const replayed: string[] = [];
    for await (const t of again.textStream) replayed.push(t);
    expect(replayed).toEqual(deltas);
    expect((await again.usage).outputTokens).toBe(3);

    const asGenerate = await generateText({ model: replay.model, prompt: 'How to set eco mode?' });
    expect(asGenerate.text).toBe(deltas.join(''));
  });

  it('replays a generate recording under streamText', async () => {
    const live = createLlmClient(
      new MockLanguageModelV3({
        doGenerate: async () => ({
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(3, 1),
          warnings: [],
        }),
      }),
      { record: file },
    );
    await generateText({ model: live.model, prompt: 'go' });
    const replay = createLlmClient(forbidden('mock-model-id'), { replay: file });
    expect(await streamText({ model: replay.model, prompt: 'go' }).text).toBe('Done.');
  });

  it('serves repeated identical requests in recorded order, then repeats the last', async () => {
    let n = 0;
    const live = createLlmClient(
      new MockLanguageModelV3({
        doGenerate: async () => ({
          content: [{ type: 'text', text: `answer ${++n}` }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(1, 1),
          warnings: [],
        }),
      }),
      { record: file },
    );
    await generateText({ model: live.model, prompt: 'same' });
    await generateText({ model: live.model, prompt: 'same' });
    const replay = createLlmClient(forbidden('mock-model-id'), { replay: file });
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await generateText({ model: replay.model, prompt: 'same' })).text);
    expect(texts).toEqual(['answer 1', 'answer 2', 'answer 2']);
  });

  it('records vision calls with the image as a hash, not the bytes', async () => {
    const live = createLlmClient(
      new MockLanguageModelV3({
        doGenerate: async () => ({
          content: [{ type: 'text', text: 'a relay' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(1, 1),
          warnings: [],
        }),
      }),
      { record: file, vision: true },
    );
    await generateText({ model: live.model, messages: visionPrompt('What is this?', [PNG]) });
    const [entry] = readCassette(file);
    expect(entry.role).toBe('vlm');
    const json = JSON.stringify(entry.request);
    expect(json).not.toContain(Buffer.from(PNG).toString('base64'));
    expect(json).toMatch(/"sha256":"[0-9a-f]{64}"/);
    const replay = createLlmClient(forbidden('mock-model-id'), { replay: file, vision: true });
    expect((await generateText({ model: replay.model, messages: visionPrompt('What is this?', [PNG]) })).text).toBe('a relay');
    const other = await rejection(generateText({ model: replay.model, messages: visionPrompt('What is this?', [PNG.slice(0, 10)]) }));
    expect(other).toMatchObject({ code: 'llm:replay_miss' });
  });

  it('refuses record and replay together, and a missing replay file', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    expect(() => createLlmClient(forbidden(), { record: file, replay: file })).toThrow(/only one of MC_LLM_RECORD and MC_LLM_REPLAY/);
    expect(() => createLlmClient(forbidden(), { replay: path.join(dir, 'nope.jsonl') })).toThrow(/MC_LLM_REPLAY file not found/);
  });

  it('replays from config with no provider and no key (eval without credentials)', async () => {
    const live = createLlmClient(
      new MockLanguageModelV3({
        modelId: 'gemini-2.5-flash',
        doGenerate: async () => ({
          content: [{ type: 'text', text: 'cached' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(1, 1),
          warnings: [],
        }),
      }),
      { provider: 'gemini', record: file },
    );
    await generateText({ model: live.model, prompt: 'q' });

    const offline = loadProviderConfig({});
    expect(offline.llm.provider).toBe('none');
    expect(createClientFromConfig('llm', offline)).toBeNull();
    const client = createClientFromConfig('llm', offline, { replay: file })!;
    expect(client).toMatchObject({ provider: 'gemini', modelId: 'gemini-2.5-flash', vision: false });
    expect((await generateText({ model: client.model, prompt: 'q' })).text).toBe('cached');
    expect(createClientFromConfig('vlm', offline, { replay: file })).toBeNull(); // nothing recorded for the VLM
  });
});

describe('request keys', () => {
  const params = (over: Partial<CallOptions> = {}): CallOptions => ({
    prompt: [
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hello' },
          { type: 'file', data: PNG, mediaType: 'image/png' },
        ],
      },
    ],
    temperature: 0,
    ...over,
  });
  const key = (over?: Partial<CallOptions>, model = 'm') => requestKey(normalizeRequest(model, params(over)));

  it('is stable and ignores transport details', () => {
    expect(key()).toMatch(/^[0-9a-f]{32}$/);
    expect(key()).toBe(key());
    expect(key({ abortSignal: new AbortController().signal, headers: { 'x-trace': '1' }, includeRawChunks: true })).toBe(key());
  });

  it('hashes image bytes the same whether passed as bytes, base64 or a data: URL', () => {
    const b64 = Buffer.from(PNG).toString('base64');
    const withData = (data: string) =>
      key({
        prompt: [
          { role: 'system', content: 'sys' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hello' },
              { type: 'file', data, mediaType: 'image/png' },
            ],
          },
        ],
      });
    expect(withData(b64)).toBe(key());
    expect(withData(`data:image/png;base64,${b64}`)).toBe(key());
  });

  it('changes with model, prompt and relevant settings', () => {
    const base = key();
    expect(key(undefined, 'other')).not.toBe(base);
    expect(key({ temperature: 0.5 })).not.toBe(base);
    expect(key({ maxOutputTokens: 100 })).not.toBe(base);
    expect(key({ responseFormat: { type: 'json' } })).not.toBe(base);
    expect(key({ providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } } })).not.toBe(base);
    expect(key({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello!' }] }] })).not.toBe(base);
  });
});
