/**
 * Password guessing on Auth.js's credentials callback. The real handlers (lib/auth/auth.ts)
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
  await createUser({ email: 'victim@example.com', role: 'member', passwordHash: await hashPassword('victim-password-1') });
  await createUser({ email: 'burst@example.com', role: 'member', passwordHash: await hashPassword('burst-password-1') });
});
afterAll(async () => {
  delete process.env.MC_AUTH;
  await closeDb();
});

/** Auth.js's CSRF token and cookie, as its client gets them before posting. */
async function csrf(): Promise<{ token: string; cookie: string }> {
  const res = await handlers.GET(new NextRequest(`${BASE}/api/auth/csrf`));
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie };
}

async function attempt(email: string, password: string, forwardedFor: string, path = '/api/auth/callback/credentials'): Promise<Response> {
  return post(
    [
      ['email', email],
      ['password', password],
    ],
    forwardedFor,
    path,
  );
}

/** A credentials post with these fields, in this order (repeats allowed), as form or JSON text. */
async function post(fields: string[][], forwardedFor: string, path = '/api/auth/callback/credentials', json?: (token: string) => string): Promise<Response> {
  const { token, cookie } = await csrf();
  const body = json ? json(token) : new URLSearchParams([['csrfToken', token], ...fields, ['callbackUrl', `${BASE}/`]]);
  return POST(
    new NextRequest(`${BASE}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': forwardedFor },
    }),
  );
}

const quiet = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);
/** 30 wrong passwords for `email`, each from another address: the account is locked out. */
async function lockOut(email: string, addressPrefix: string): Promise<void> {
  for (let i = 0; i < 30; i++) expect((await attempt(email, `wrong-${i}`, `${addressPrefix}.${i}`)).status).toBe(302);
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

describe('the account counted is the account checked', () => {
  it('a form naming the name or the password twice gets 400 and no check, also while the account is locked out', async () => {
    const warn = quiet();
    try {
      // The decoy first, the real name last (Auth.js reads the last): 45 of them, from 45 addresses.
      for (let i = 0; i < 45; i++) {
        const res = await post(
          [
            ['email', `decoy-${i}`],
            ['email', 'victim@example.com'],
            ['password', `wrong-${i}`],
          ],
          `198.18.0.${i}`,
        );
        expect(res.status, `try ${i + 1}`).toBe(400);
      }
      // The right password in a repeated field is not checked either.
      const right = await post(
        [
          ['email', 'zz'],
          ['email', 'victim@example.com'],
          ['password', 'victim-password-1'],
        ],
        '198.18.1.1',
      );
      expect(right.status).toBe(400);
      expect(signedIn(right)).toBe(false);
      expect(
        (
          await post(
            [
              ['email', 'victim@example.com'],
              ['password', 'x'],
              ['password', 'victim-password-1'],
            ],
            '198.18.1.2',
          )
        ).status,
      ).toBe(400);
      // None of it was a password check, so nothing was counted: one name, one password signs in.
      expect(warn.mock.calls).toHaveLength(0);
      expect(signedIn(await attempt('victim@example.com', 'victim-password-1', '198.18.1.3'))).toBe(true);

      await lockOut('victim@example.com', '198.18.2');
      const locked = await post(
        [
          ['email', 'zz'],
          ['email', 'victim@example.com'],
          ['password', 'victim-password-1'],
        ],
        '198.18.3.1',
      );
      expect(locked.status).toBe(400);
      expect(signedIn(locked)).toBe(false);
      // JSON keeps the last of repeated keys for the throttle as for Auth.js: the locked account.
      const json = await post(
        [],
        '198.18.3.2',
        undefined,
        (token) => `{"csrfToken":"${token}","email":"zz","email":"victim@example.com","password":"victim-password-1"}`,
      );
      expect(json.status).toBe(429);
      expect(signedIn(json)).toBe(false);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('a burst of concurrent attempts', () => {
  it('150 at once from one address: 30 passwords are checked, the rest get 429, and then the right password too', async () => {
    const warn = quiet();
    try {
      const results = await Promise.all(Array.from({ length: 150 }, (_, i) => attempt('burst@example.com', `wrong-${i}`, '192.0.2.99')));
      const checked = results.filter((r) => r.status !== 429);
      expect(checked).toHaveLength(30);
      expect(checked.every((r) => r.status === 302 && !signedIn(r))).toBe(true);
      const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, string>);
      expect(lines.filter((l) => l.event === 'signin_failed')).toHaveLength(30);
      const right = await attempt('burst@example.com', 'burst-password-1', '192.0.2.100');
      expect(right.status).toBe(429);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('FailureThrottle', () => {
  it('counts attempts before their check: concurrent begins pass the limit never; a success gives its count back, the failure at the limit locks out', async () => {
    const now = 0;
    const t = new FailureThrottle({ failures: 3, windowMs: 60_000, maxLockMs: 15 * 60_000 }, 'test', () => now);
    const begun = await Promise.all(Array.from({ length: 10 }, () => t.begin(['k'])));
    const attempts = begun.flatMap((b) => ('attempt' in b ? [b.attempt] : []));
    expect(attempts).toHaveLength(3);
    expect(begun.filter((b) => 'retryAfterS' in b && b.retryAfterS === 60)).toHaveLength(7);
    await attempts[0].succeeded(); // a right password: its count is given back
    const next = await t.begin(['k']);
    expect('attempt' in next).toBe(true);
    await attempts[1].failed();
    expect(await t.retryAfterS(['k'])).toBe(0); // two failures so far
    await attempts[2].failed(); // took the last count when it began: the lockout starts
    expect(await t.retryAfterS(['k'])).toBe(60);
    expect(await t.begin(['k'])).toEqual({ retryAfterS: 60 });
  });

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
