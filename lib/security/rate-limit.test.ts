import { describe, expect, it } from 'vitest';
import { InFlightLimiter, RateLimiter, tooManyRequests } from './rate-limit';

describe('RateLimiter (in memory: SQLite mode)', () => {
  it('allows the limit per window per key, then says when to retry', async () => {
    let now = 1_000_000;
    const rl = new RateLimiter({ limit: 3, windowMs: 60_000 }, () => now);
    expect(await rl.take('a')).toEqual({ ok: true, remaining: 2 });
    await rl.take('a');
    expect(await rl.take('a')).toEqual({ ok: true, remaining: 0 });
    expect(await rl.take('a')).toEqual({ ok: false, retryAfterS: 60 });
    expect((await rl.take('b')).ok).toBe(true); // other owners are unaffected
    now += 30_000;
    expect(await rl.take('a')).toEqual({ ok: false, retryAfterS: 30 });
    now += 30_001;
    expect((await rl.take('a')).ok).toBe(true); // the window slid past the first hits
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
    for (let i = 0; i < LIMITS.write.limit; i++) expect((await rateLimit('write', key)).ok).toBe(true);
    expect((await rateLimit('write', key)).ok).toBe(false);
    // The same key as an address is a different bucket, with a larger limit.
    for (let i = 0; i < LIMITS.write.limit * ADDRESS_LIMIT_FACTOR; i++) expect((await rateLimit('write', key, 'address')).ok).toBe(true);
    expect((await rateLimit('write', key, 'address')).ok).toBe(false);
  });
});

describe('InFlightLimiter (in memory)', () => {
  it('gives at most `cap` slots per key, at once, and a released slot can be taken again', async () => {
    const limiter = new InFlightLimiter(2);
    const a1 = await limiter.acquire('a');
    const a2 = await limiter.acquire('a');
    expect(a1 && a2).toBeTruthy();
    expect(await limiter.acquire('a')).toBeNull();
    expect(await limiter.acquire('b')).not.toBeNull(); // another key is unaffected
    await a1!();
    await a1!(); // releasing twice gives back one slot only
    expect(await limiter.acquire('a')).not.toBeNull();
    expect(await limiter.acquire('a')).toBeNull();
  });
});
