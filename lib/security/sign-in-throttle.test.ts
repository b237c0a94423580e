/**
 * Issue 34: password guessing on Auth.js's credentials callback. The real handlers (lib/auth/auth.ts)
 * over a real users table, wrapped as app/api/auth/[...nextauth]/route.ts wraps them.
 */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handlers } from '../auth/auth';
import { hashPassword } from '../auth/password';
import { closeDb } from '../store/db';
import { createUser } from '../store/users';
import { FailureThrottle } from './failure-throttle';
import { throttleCredentialsCallback } from './sign-in-throttle';

const POST = throttleCredentialsCallback(handlers.POST);
const BASE = 'http://app.test';

beforeAll(async () => {
  process.env.MC_AUTH = 'signin';
  await createUser({ email: 'guessed@example.com', role: 'member', passwordHash: await hashPassword('the-right-password') });
  await createUser({ email: 'other@example.com', role: 'member', passwordHash: await hashPassword('other-password-1') });
});
afterAll(async () => {
  delete process.env.MC_AUTH;
  await closeDb();
});

/** Auth.js's CSRF token and cookie, as its client gets them before posting. */
async function csrf(): Promise<{ token: string; cookie: string }> {
  const res = await handlers.GET(new NextRequest(`${BASE}/api/auth/csrf`));
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie };
}

async function attempt(email: string, password: string, forwardedFor: string, path = '/api/auth/callback/credentials'): Promise<Response> {
  const { token, cookie } = await csrf();
  const body = new URLSearchParams({ csrfToken: token, email, password, callbackUrl: `${BASE}/` });
  return POST(
    new NextRequest(`${BASE}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': forwardedFor },
    }),
  );
}

const signedIn = (res: Response) => res.headers.getSetCookie().some((c) => /^authjs\.session-token=[^;]/.test(c));

describe('sign-in throttling on POST /api/auth/callback/credentials', () => {
  it('30 wrong passwords a minute per account: the 31st, and then the right one, get 429; each failure is logged without the password', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const ok = await attempt('other@example.com', 'other-password-1', '198.51.100.1');
      expect(ok.status).toBe(302);
      expect(signedIn(ok)).toBe(true);
      for (let i = 0; i < 30; i++) {
        // A new address each time (a spoofed header on a direct connection would look like this):
        // the account's own limit still holds.
        const res = await attempt('Guessed@Example.com', `wrong-${i}`, `203.0.113.${i}`);
        expect(res.status, `attempt ${i + 1}`).toBe(302);
        expect(signedIn(res)).toBe(false);
      }
      const blocked = await attempt('guessed@example.com', 'wrong-31', '203.0.113.200');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      const right = await attempt('guessed@example.com', 'the-right-password', '203.0.113.201');
      expect(right.status).toBe(429);
      expect(signedIn(right)).toBe(false);
      // Auth.js reads a trailing slash as the same callback: so does the throttle.
      const slashed = await attempt('guessed@example.com', 'the-right-password', '203.0.113.202', '/api/auth/callback/credentials/');
      expect(slashed.status).toBe(429);
      expect(signedIn(slashed)).toBe(false);
      // Other accounts from other addresses are not affected.
      expect(signedIn(await attempt('other@example.com', 'other-password-1', '198.51.100.2'))).toBe(true);

      const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, string>);
      const failed = lines.filter((l) => l.event === 'signin_failed');
      expect(failed).toHaveLength(30);
      expect(failed[0]).toMatchObject({ account: 'guessed@example.com', address: '203.0.113.0', via: 'route' });
      expect(lines.filter((l) => l.event === 'signin_refused')).toHaveLength(3);
      expect(JSON.stringify(warn.mock.calls)).not.toMatch(/wrong-|the-right-password/);
    } finally {
      warn.mockRestore();
    }
  });

  it('30 failures a minute per address, whatever accounts they name', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 30; i++) expect((await attempt(`nobody-${i}@example.com`, 'x-x-x-x-x', '192.0.2.7')).status).toBe(302);
      expect((await attempt('other@example.com', 'other-password-1', '192.0.2.7')).status).toBe(429);
      // The client address is the last X-Forwarded-For entry (the socket, appended by the server):
      // entries a client adds in front of it change nothing.
      expect((await attempt('other@example.com', 'other-password-1', '10.9.9.9, 192.0.2.7')).status).toBe(429);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('FailureThrottle', () => {
  it('locks a key out at its limit for the window, then twice as long at the next lockout', async () => {
    let now = 0;
    const t = new FailureThrottle({ failures: 3, windowMs: 60_000, maxLockMs: 15 * 60_000 }, 'test', () => now);
    for (let i = 0; i < 2; i++) await t.fail(['k']);
    expect(await t.retryAfterS(['k'])).toBe(0);
    await t.fail(['k']);
    expect(await t.retryAfterS(['k', 'other'])).toBe(60);
    expect(await t.retryAfterS(['other'])).toBe(0);
    now += 60_000;
    expect(await t.retryAfterS(['k'])).toBe(0);
    for (let i = 0; i < 3; i++) await t.fail(['k']);
    expect(await t.retryAfterS(['k'])).toBe(120);
    now += 120_000;
    for (let i = 0; i < 3; i++) await t.fail(['k']);
    expect(await t.retryAfterS(['k'])).toBe(240);
    // Quiet for longer than the longest lockout: back to one window.
    now += 240_000 + 16 * 60_000;
    for (let i = 0; i < 3; i++) await t.fail(['k']);
    expect(await t.retryAfterS(['k'])).toBe(60);
  });
});
