/**
 * Bodies are read after the caller is known, and capped. A 100 MB PATCH without a cookie
 * used to be parsed whole before its 401 (next-server 331 → 1,016 MB with four of them); now the
 * route answers 401 without reading a byte, and with a cookie 413 — from the Content-Length
 * without reading, or after at most the cap when the body is chunked.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PATCH } from '@/app/api/manuals/[id]/route';
import { POST as chatPost } from '@/app/api/chat/route';
import { POST as askPost } from '@/app/api/v1/ask/route';
import { createApiKey } from '@/lib/api/keys';
import { testCaller } from '@/lib/auth/testing/owner-request';
import { closeDb } from '@/lib/store/db';

vi.mock('next/headers', async (importOriginal) => (await import('@/lib/auth/testing/owner-request')).withOwnerCookie(importOriginal, null));

afterAll(async () => {
  await closeDb();
});

const MB = 1024 * 1024;

/** A body of `totalMb` MB that counts how many bytes were pulled from it. */
function countedBody(totalMb: number) {
  const state = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.bytes >= totalMb * MB) return controller.close();
        state.bytes += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    },
    { highWaterMark: 0 },
  ); // nothing is pulled until someone reads
  return { stream, state };
}

function request(url: string, method: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request(`http://127.0.0.1:3000${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

const params = { params: Promise.resolve({ id: 'no-such-manual' }) };

describe('bodies are read after the caller is known, and capped', () => {
  it('a 100 MB PATCH without a cookie: 401, not a byte read', async () => {
    testCaller.ownerId = null;
    for (const headers of [{ 'content-length': String(100 * MB) }, {}] as Record<string, string>[]) {
      const { stream, state } = countedBody(100);
      const res = await PATCH(request('/api/manuals/no-such-manual', 'PATCH', stream, headers), params);
      expect(res.status).toBe(401);
      expect(state.bytes).toBe(0);
    }
  });

  it('with a cookie: 413 from the declared length without reading, or after at most the cap when chunked', async () => {
    testCaller.ownerId = 'body-caps-owner-0001';
    const declared = countedBody(100);
    expect((await PATCH(request('/api/manuals/no-such-manual', 'PATCH', declared.stream, { 'content-length': String(100 * MB) }), params)).status).toBe(413);
    expect(declared.state.bytes).toBe(0);
    const chunked = countedBody(100);
    expect((await PATCH(request('/api/manuals/no-such-manual', 'PATCH', chunked.stream), params)).status).toBe(413);
    expect(chunked.state.bytes).toBeLessThanOrEqual(256 * 1024); // the 8 KB cap plus what the stream had queued
  });

  it('the chat route: 401 before its body is read', async () => {
    testCaller.ownerId = null;
    const { stream, state } = countedBody(100);
    expect((await chatPost(request('/api/chat', 'POST', stream))).status).toBe(401);
    expect(state.bytes).toBe(0);
  });

  it('/api/v1/ask: 401 without a key, not a byte read; with a key, 413 past 64 KB', async () => {
    const anonymous = countedBody(100);
    expect((await askPost(request('/api/v1/ask', 'POST', anonymous.stream))).status).toBe(401);
    expect(anonymous.state.bytes).toBe(0);
    const { key } = await createApiKey('body-caps-owner-0001', 'caps');
    const big = countedBody(100);
    const res = await askPost(request('/api/v1/ask', 'POST', big.stream, { authorization: `Bearer ${key}` }));
    expect(res.status).toBe(413);
    expect(big.state.bytes).toBeLessThanOrEqual(512 * 1024);
  });
});
