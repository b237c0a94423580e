/**
 * Request shapes of the two backends, checked through the full client (middleware included)
 * against a fake fetch that answers like the real APIs.
 */
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { loadProviderConfig } from '../roles';
import { createClientFromConfig, visionPrompt } from './index';
import { fakeFetch, geminiAnswer, json, openaiAnswer, PNG, sse } from './testing/helpers';

const GEMINI_KEY = 'AIza-test-gemini-key-0123456789';
const geminiConfig = (extra: Record<string, string> = {}) =>
  loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: GEMINI_KEY, LLM_PROVIDER: 'gemini', VLM_PROVIDER: 'gemini', ...extra });
const openaiConfig = (apiKey?: string) =>
  loadProviderConfig({
    OPENAI_COMPATIBLE_BASE_URL: 'http://localhost:11434/v1',
    OPENAI_COMPATIBLE_MODEL: 'llama3.2',
    OPENAI_COMPATIBLE_VISION_MODEL: 'llava:7b',
    ...(apiKey ? { OPENAI_COMPATIBLE_API_KEY: apiKey } : {}),
  });

describe('gemini backend', () => {
  it('posts generateContent with the user text and the key header, and parses the answer', async () => {
    const { fetch, calls } = fakeFetch(() => json(geminiAnswer('Torque the M8 bolts to 25 Nm.')));
    const client = createClientFromConfig('llm', geminiConfig(), { fetch })!;
    expect(client.provider).toBe('gemini');
    expect(client.vision).toBe(false);

    const res = await generateText({ model: client.model, prompt: 'What torque for the M8 bolts?' });

    expect(res.text).toBe('Torque the M8 bolts to 25 Nm.');
    expect(res.usage.inputTokens).toBe(12);
    expect(res.usage.outputTokens).toBe(8);
    expect(calls).toHaveLength(1);
    const [req] = calls;
    expect(req.method).toBe('POST');
    expect(req.url).toContain('models/gemini-2.5-flash:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(req.url).not.toContain(GEMINI_KEY); // the key travels in a header, not the URL
    expect(req.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'What torque for the M8 bolts?' }] }] });
  });

  it('sends a page image as inlineData (image/png, base64) to the VLM model', async () => {
    const { fetch, calls } = fakeFetch(() => json(geminiAnswer('A wiring diagram with connector X3.')));
    const client = createClientFromConfig('vlm', geminiConfig({ GEMINI_VISION_MODEL: 'gemini-2.5-pro' }), { fetch })!;
    expect(client.vision).toBe(true);
    expect(client.modelId).toBe('gemini-2.5-pro');

    const res = await generateText({ model: client.model, messages: visionPrompt('Describe this page.', [PNG]) });

    expect(res.text).toBe('A wiring diagram with connector X3.');
    expect(calls[0].url).toContain('models/gemini-2.5-pro:generateContent');
    const parts = (calls[0].body as { contents: Array<{ parts: unknown[] }> }).contents[0].parts;
    expect(parts).toContainEqual({ text: 'Describe this page.' });
    expect(parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: Buffer.from(PNG).toString('base64') } });
  });

  it('streams from streamGenerateContent (SSE) and yields the text', async () => {
    const { fetch, calls } = fakeFetch(() =>
      sse([
        { candidates: [{ content: { parts: [{ text: 'Reset the ' }], role: 'model' }, index: 0 }] },
        {
          candidates: [{ content: { parts: [{ text: 'breaker.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
        },
      ]),
    );
    const client = createClientFromConfig('llm', geminiConfig(), { fetch })!;
    const res = streamText({ model: client.model, prompt: 'How do I clear E04?' });
    expect(await res.text).toBe('Reset the breaker.');
    expect(calls[0].url).toContain('models/gemini-2.5-flash:streamGenerateContent');
    expect((await res.usage).outputTokens).toBe(3);
  });
});

describe('openai-compatible backend', () => {
  it('posts {baseURL}/chat/completions with model, messages and a Bearer key', async () => {
    const { fetch, calls } = fakeFetch(() => json(openaiAnswer('Error E04 means low water pressure.')));
    const client = createClientFromConfig('llm', openaiConfig('sk-local-secret-123456'), { fetch })!;
    expect(client.provider).toBe('openai-compatible');
    expect(client.modelId).toBe('llama3.2');

    const res = await generateText({ model: client.model, system: 'Answer from the manual.', prompt: 'What is E04?' });

    expect(res.text).toBe('Error E04 means low water pressure.');
    expect(res.usage.totalTokens).toBe(15);
    const [req] = calls;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-local-secret-123456');
    expect(req.body).toMatchObject({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Answer from the manual.' },
        { role: 'user', content: 'What is E04?' },
      ],
    });
  });

  it('sends no Authorization header when no key is configured (local servers)', async () => {
    const { fetch, calls } = fakeFetch(() => json(openaiAnswer('ok')));
    const client = createClientFromConfig('llm', openaiConfig(), { fetch })!;
    await generateText({ model: client.model, prompt: 'ping' });
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('sends images as image_url parts with a data: URL to the vision model', async () => {
    const { fetch, calls } = fakeFetch(() => json(openaiAnswer('Pin 3 is GND.', 'llava:7b')));
    const client = createClientFromConfig('vlm', openaiConfig(), { fetch })!;
    expect(client.modelId).toBe('llava:7b');

    const res = await generateText({ model: client.model, messages: visionPrompt('Which pin is ground?', [PNG]) });

    expect(res.text).toBe('Pin 3 is GND.');
    const body = calls[0].body as { model: string; messages: Array<{ role: string; content: unknown[] }> };
    expect(body.model).toBe('llava:7b');
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'Which pin is ground?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` } },
    ]);
  });

  it('streams with stream_options.include_usage so streamed calls report tokens', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'llama3.2',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const { fetch, calls } = fakeFetch(() =>
      sse([
        chunk({ role: 'assistant', content: 'Open ' }),
        chunk({ content: 'valve V2.' }, 'stop'),
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1_700_000_000,
          model: 'llama3.2',
          choices: [],
          usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
        },
        '[DONE]',
      ]),
    );
    const client = createClientFromConfig('llm', openaiConfig(), { fetch })!;
    const res = streamText({ model: client.model, prompt: 'Next step?' });
    expect(await res.text).toBe('Open valve V2.');
    expect((await res.usage).inputTokens).toBe(9);
    expect(calls[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});
