/**
 * Sessions end with a password change and with a sign-out: a copy of the cookie taken before is
 * refused afterwards. The real Auth.js handlers over a real users table; the CLI as a process.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../store/db';
import { createUser, getUser } from '../store/users';
import { handlers } from './auth';
import { hashPassword } from './password';
import { changeUser } from './users-admin';

const BASE = 'http://app.test';

beforeAll(() => {
  process.env.MC_AUTH = 'signin';
});
afterAll(async () => {
  delete process.env.MC_AUTH;
  await closeDb();
});

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

async function csrf(cookie = ''): Promise<{ token: string; cookie: string }> {
  const res = await handlers.GET(new NextRequest(`${BASE}/api/auth/csrf`, { headers: { cookie } }));
  return { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie: [cookie, ...cookiesOf(res)].filter(Boolean).join('; ') };
}

/** Signs in through Auth.js's credentials callback; the session cookie. */
async function signIn(email: string, password: string): Promise<string> {
  const { token, cookie } = await csrf();
  const res = await handlers.POST(
    new NextRequest(`${BASE}/api/auth/callback/credentials`, {
      method: 'POST',
      body: new URLSearchParams({ csrfToken: token, email, password, callbackUrl: `${BASE}/` }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    }),
  );
  const session = cookiesOf(res).find((c) => /^authjs\.session-token=./.test(c));
  expect(session, 'signed in').toBeDefined();
  return session!;
}

/** Who Auth.js says the cookie belongs to (its session endpoint runs the jwt callback, as auth() does). */
async function whoIs(sessionCookie: string): Promise<string | null> {
  const res = await handlers.GET(new NextRequest(`${BASE}/api/auth/session`, { headers: { cookie: sessionCookie } }));
  return ((await res.json()) as { user?: { id?: string } } | null)?.user?.id ?? null;
}

async function signOut(sessionCookie: string): Promise<void> {
  const { token, cookie } = await csrf(sessionCookie);
  const res = await handlers.POST(
    new NextRequest(`${BASE}/api/auth/signout`, {
      method: 'POST',
      body: new URLSearchParams({ csrfToken: token, callbackUrl: `${BASE}/signin` }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    }),
  );
  expect(res.status).toBe(302);
}

describe('session versions', () => {
  it('a password change by an admin ends every session issued before it; signing in again works', async () => {
    const user = await createUser({ email: 'changer@example.com', role: 'member', passwordHash: await hashPassword('first-password') });
    const laptop = await signIn('changer@example.com', 'first-password');
    const phone = await signIn('changer@example.com', 'first-password');
    expect(await whoIs(laptop)).toBe(user.id);
    expect(await whoIs(phone)).toBe(user.id);

    await changeUser(user.id, { password: 'second-password' });
    expect(await whoIs(laptop)).toBeNull();
    expect(await whoIs(phone)).toBeNull();
    expect(await whoIs(await signIn('changer@example.com', 'second-password'))).toBe(user.id);
  });

  it('a role change ends no session', async () => {
    const user = await createUser({ email: 'promoted@example.com', role: 'member', passwordHash: await hashPassword('some-password') });
    const session = await signIn('promoted@example.com', 'some-password');
    await changeUser(user.id, { role: 'admin' });
    expect(await whoIs(session)).toBe(user.id);
  });

  it('signing out ends the session everywhere: a copy of the cookie kept from before is refused', async () => {
    const user = await createUser({ email: 'leaving@example.com', role: 'member', passwordHash: await hashPassword('some-password') });
    const session = await signIn('leaving@example.com', 'some-password');
    const copy = session; // what an attacker, or another tab, kept
    await signOut(session);
    expect(await whoIs(copy)).toBeNull();
    // A stale cookie's sign-out does not end the sessions that came after it.
    const fresh = await signIn('leaving@example.com', 'some-password');
    await signOut(copy);
    expect(await whoIs(fresh)).toBe(user.id);
  });

  it('`npm run users -- password` ends the sessions too', async () => {
    const user = await createUser({ email: 'cli-user', role: 'member', passwordHash: await hashPassword('old-password') });
    const session = await signIn('cli-user', 'old-password');
    const before = (await getUser(user.id))!.sessionVersion;
    const root = path.resolve(import.meta.dirname, '../..');
    await promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), ['scripts/users.ts', 'password', 'cli-user', 'new-password-1'], {
      cwd: root,
      env: { ...process.env },
      timeout: 60_000,
    });
    expect((await getUser(user.id))!.sessionVersion).toBe(before + 1);
    expect(await whoIs(session)).toBeNull();
  });
});
