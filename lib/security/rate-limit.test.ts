import { describe, expect, it } from 'vitest';
import { RateLimiter, tooManyRequests } from './rate-limit';

describe('RateLimiter', () => {
  it('allows the limit per window per key, then says when to retry', () => {
    let now = 1_000_000;
    const rl = new RateLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    expect(rl.take('a')).toEqual({ ok: true, remaining: 2 });
    rl.take('a');
    expect(rl.take('a')).toEqual({ ok: true, remaining: 0 });
    expect(rl.take('a')).toEqual({ ok: false, retryAfterS: 60 });
    expect(rl.take('b').ok).toBe(true); // other owners are unaffected
    now += 30_000;
    expect(rl.take('a')).toEqual({ ok: false, retryAfterS: 30 });
    now += 30_001;
    expect(rl.take('a').ok).toBe(true); // the window slid past the first hits
  });

  it('answers 429 with Retry-After and a readable message', async () => {
    const res = tooManyRequests('questions', 12);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('12');
    expect((await res.json()).error).toMatch(/wait 12 s/);
  });
});

describe('rateLimit scopes', () => {
  it('keeps owners and addresses in separate buckets; an address gets several owners’ worth', async () => {
    const { rateLimit, LIMITS, ADDRESS_LIMIT_FACTOR } = await import('./rate-limit');
    const key = `test-${Math.random()}`;
    for (let i = 0; i < LIMITS.write.limit; i++) expect(rateLimit('write', key).ok).toBe(true);
    expect(rateLimit('write', key).ok).toBe(false);
    // The same key as an address is a different bucket, with a larger limit.
    for (let i = 0; i < LIMITS.write.limit * ADDRESS_LIMIT_FACTOR; i++) expect(rateLimit('write', key, 'address').ok).toBe(true);
    expect(rateLimit('write', key, 'address').ok).toBe(false);
  });
});
