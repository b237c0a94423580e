import { describe, expect, it } from 'vitest';
import { clientAddress } from '../config/network';
import { assertSameOrigin, GuardError, readJsonCapped } from './request-guard';

const req = (headers: Record<string, string>, body?: BodyInit) => new Request('http://127.0.0.1:3000/api/chat', { method: 'POST', headers, body });
const status = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof GuardError ? err.status : err;
  }
};

describe('origin check', () => {
  it('refuses another site, accepts this one and non-browser clients', () => {
    expect(status(() => assertSameOrigin(req({ host: '127.0.0.1:3000', origin: 'https://evil.example' })))).toBe(403);
    expect(status(() => assertSameOrigin(req({ host: '127.0.0.1:3000', origin: 'null' })))).toBe(403);
    expect(status(() => assertSameOrigin(req({ host: '127.0.0.1:3000', 'sec-fetch-site': 'cross-site' })))).toBe(403);
    expect(status(() => assertSameOrigin(req({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' })))).toBe('ok');
    expect(
      status(() => assertSameOrigin(req({ host: 'internal:3000', 'x-forwarded-host': 'manuals.example.com', origin: 'https://manuals.example.com' }))),
    ).toBe('ok');
    expect(status(() => assertSameOrigin(req({ host: '127.0.0.1:3000' })))).toBe('ok'); // curl: no ambient credentials to abuse
  });
});

describe('capped JSON bodies', () => {
  it('parses a small body and refuses a large one by its length or while streaming', async () => {
    expect(await readJsonCapped(req({}, JSON.stringify({ a: 1 })))).toEqual({ a: 1 });
    expect(await readJsonCapped(req({}, 'not json'))).toBeNull();
    await expect(readJsonCapped(req({}, 'x'.repeat(70_000)))).rejects.toMatchObject({ status: 413 });
    const stream = new ReadableStream({
      pull(c) {
        c.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const chunked = new Request('http://x/api/chat', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expect(readJsonCapped(chunked)).rejects.toMatchObject({ status: 413 });
  });
});

describe('client address', () => {
  it('takes the peer entry, skipping as many entries as there are trusted proxies', () => {
    const h = new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.2' });
    expect(clientAddress(h, 0)).toBe('10.0.0.2');
    expect(clientAddress(h, 1)).toBe('203.0.113.9');
    expect(clientAddress(h, 5)).toBe('198.51.100.1');
    expect(clientAddress(new Headers(), 0)).toBe('unknown');
  });
});
