import { describe, expect, it } from 'vitest';
import { GeminiEmbedder } from './gemini';
import { dot } from './testing/vectors';

interface Captured {
  url: string;
  method?: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A fake fetch that records requests and answers like the Gemini API. */
function fakeGemini(dims: number, status = 200) {
  const calls: Captured[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}'));
    calls.push({ url: String(input), method: init?.method, headers: new Headers(init?.headers), body });
    if (status !== 200) {
      return new Response(JSON.stringify({ error: { code: status, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }), { status });
    }
    // Vector = [text length, 1, 1, …] so parsing and order are checkable.
    const vec = (text: string) => [text.length, ...Array.from({ length: dims - 1 }, () => 1)];
    const json = String(input).endsWith(':batchEmbedContents')
      ? { embeddings: (body.requests as Array<{ content: { parts: Array<{ text: string }> } }>).map((r) => ({ values: vec(r.content.parts[0].text) })) }
      : { embedding: { values: vec((body.content as { parts: Array<{ text: string }> }).parts[0].text) } };
    return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetchFn };
}

describe('GeminiEmbedder', () => {
  it('sends documents to batchEmbedContents with RETRIEVAL_DOCUMENT and parses them in order', async () => {
    const { calls, fetchFn } = fakeGemini(768);
    const e = new GeminiEmbedder({ apiKey: 'test-key', model: 'gemini-embedding-001', fetch: fetchFn, maxAttempts: 1 });
    expect(e).toMatchObject({ provider: 'gemini', dimensions: 768, id: 'gemini:gemini-embedding-001:768' });

    const vecs = await e.embedDocuments(['a', 'bbbb']);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(call.method).toBe('POST');
    expect(call.headers.get('x-goog-api-key')).toBe('test-key');
    expect(call.body).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { role: 'user', parts: [{ text: 'a' }] }, taskType: 'RETRIEVAL_DOCUMENT', outputDimensionality: 768 },
        {
          model: 'models/gemini-embedding-001',
          content: { role: 'user', parts: [{ text: 'bbbb' }] },
          taskType: 'RETRIEVAL_DOCUMENT',
          outputDimensionality: 768,
        },
      ],
    });
    // Truncated Matryoshka vectors are re-normalised; the first component carries the text length.
    expect(dot(vecs[0], vecs[0])).toBeCloseTo(1, 5);
    expect(vecs[1][0]).toBeGreaterThan(vecs[0][0]);
  });

  it('sends a query to embedContent with RETRIEVAL_QUERY', async () => {
    const { calls, fetchFn } = fakeGemini(768);
    const e = new GeminiEmbedder({ apiKey: 'k', model: 'gemini-embedding-001', fetch: fetchFn, maxAttempts: 1 });
    const q = await e.embedQuery('fuse rating?');
    expect(calls[0].url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:embedContent');
    expect(calls[0].body).toEqual({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: 'fuse rating?' }] },
      taskType: 'RETRIEVAL_QUERY',
      outputDimensionality: 768,
    });
    expect(q).toHaveLength(768);
  });

  it('splits more than 100 documents across calls (the API limit)', async () => {
    const { calls, fetchFn } = fakeGemini(8);
    const e = new GeminiEmbedder({ apiKey: 'k', model: 'gemini-embedding-001', dimensions: 8, fetch: fetchFn, maxAttempts: 1 });
    const vecs = await e.embedDocuments(Array.from({ length: 150 }, (_, i) => `t${i}`));
    expect(vecs).toHaveLength(150);
    expect(calls.map((c) => (c.body.requests as unknown[]).length).sort()).toEqual([100, 50].sort());
  });

  it('rejects vectors of the wrong size', async () => {
    const { fetchFn } = fakeGemini(3072);
    const e = new GeminiEmbedder({ apiKey: 'k', model: 'gemini-embedding-001', fetch: fetchFn, maxAttempts: 1 });
    await expect(e.embedQuery('x')).rejects.toThrow(/returned 3072 dimensions, expected 768/);
  });

  it('surfaces API errors', async () => {
    const { fetchFn } = fakeGemini(768, 429);
    const e = new GeminiEmbedder({ apiKey: 'k', model: 'gemini-embedding-001', fetch: fetchFn, maxAttempts: 1 });
    await expect(e.embedDocuments(['a', 'b'])).rejects.toThrow(/quota/);
  });
});
