import { describe, expect, it } from 'vitest';
import { OpenAICompatibleEmbedder } from './openai-compatible';
import { dot } from './testing/vectors';

interface Captured {
  url: string;
  headers: Headers;
  body: { model: string; input: string[]; encoding_format?: string };
}

/** Answers like Ollama/vLLM /v1/embeddings: vector = [input length, 2, 2]. */
function fakeServer(dims = 3) {
  const calls: Captured[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body));
    calls.push({ url: String(input), headers: new Headers(init?.headers), body });
    const data = (body.input as string[]).map((t, index) => ({
      object: 'embedding',
      index,
      embedding: [t.length, ...Array.from({ length: dims - 1 }, () => 2)],
    }));
    return new Response(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 3, total_tokens: 3 } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetchFn };
}

describe('OpenAICompatibleEmbedder', () => {
  it('learns the vector size from one probe request, then posts batches to /embeddings', async () => {
    const { calls, fetchFn } = fakeServer(3);
    const e = await OpenAICompatibleEmbedder.create({
      baseURL: 'http://localhost:11434/v1',
      apiKey: 'sk-local',
      model: 'all-minilm',
      fetch: fetchFn,
      maxAttempts: 1,
    });
    expect(e).toMatchObject({ provider: 'openai-compatible', dimensions: 3, id: 'openai-compatible:localhost:11434:all-minilm:3' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://localhost:11434/v1/embeddings');
    expect(calls[0].headers.get('authorization')).toBe('Bearer sk-local');
    expect(calls[0].body).toMatchObject({ model: 'all-minilm', input: ['dimension probe'], encoding_format: 'float' });

    const vecs = await e.embedDocuments(['ab', 'abcdef']);
    expect(calls[1].body).toMatchObject({ model: 'all-minilm', input: ['ab', 'abcdef'] });
    expect(dot(vecs[0], vecs[0])).toBeCloseTo(1, 5);
    expect(vecs[1][0]).toBeGreaterThan(vecs[0][0]);
  });

  it('adds the task prefixes an asymmetric model needs (nomic-embed-text)', async () => {
    const { calls, fetchFn } = fakeServer();
    const e = await OpenAICompatibleEmbedder.create({ baseURL: 'http://127.0.0.1:8000/v1', model: 'nomic-embed-text', fetch: fetchFn, maxAttempts: 1 });
    await e.embedQuery('which fuse?');
    await e.embedDocuments(['Fuse F1: 5 A slow-blow']);
    expect(calls[1].body.input).toEqual(['search_query: which fuse?']);
    expect(calls[2].body.input).toEqual(['search_document: Fuse F1: 5 A slow-blow']);
    expect(calls[1].headers.get('authorization')).toBeNull();
  });

  it('fails at creation when the server is down', async () => {
    const fetchFn: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(OpenAICompatibleEmbedder.create({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', fetch: fetchFn, maxAttempts: 1 })).rejects.toThrow();
  });

  it('rejects a vector of a different size than the probe', async () => {
    let dims = 3;
    const fetchFn: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body));
      const data = (body.input as string[]).map((_, index) => ({ index, embedding: Array.from({ length: dims }, () => 1) }));
      return new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const e = await OpenAICompatibleEmbedder.create({ baseURL: 'http://127.0.0.1:8000/v1', model: 'm', fetch: fetchFn, maxAttempts: 1 });
    dims = 4;
    await expect(e.embedQuery('x')).rejects.toThrow(/returned 4 dimensions, expected 3/);
  });
});
