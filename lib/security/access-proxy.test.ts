/**
 * Sessions end with their account, a password change and a sign-out; server actions from another
 * site are refused.
 * The proxy's access step over a real users table and a real Auth.js session token.
 */
import { encode } from 'next-auth/jwt';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSecret } from '../auth/owner-cookie';
import { closeDb } from '../store/db';
import { createUser, deleteUser, endSessions, updateUser } from '../store/users';
import { accessStep } from './access-proxy';

const SALT = 'authjs.session-token';

beforeAll(() => {
  process.env.MC_AUTH = 'signin';
});
afterAll(async () => {
  delete process.env.MC_AUTH;
  await closeDb();
});

/** A page request with a session token of `userId`, issued at session version `version`. */
async function pageRequest(path: string, userId: string, version: number | undefined = 0): Promise<NextRequest> {
  const token = await encode({ token: { sub: userId, name: 'x', sessionVersion: version }, secret: authSecret(), salt: SALT });
  return new NextRequest(`http://app.test${path}`, { headers: { cookie: `${SALT}=${token}` } });
}

describe('sign-in mode: the session check reads the account', () => {
  it("a removed user's cookie gets the sign-in page, and loses the cookie", async () => {
    const user = await createUser({ email: 'leaver@example.com', role: 'member' });
    for (const path of ['/', '/manuals', '/manuals/m1', '/share/s1']) expect(await accessStep(await pageRequest(path, user.id))).toEqual({});
    await deleteUser(user.id);
    for (const path of ['/', '/manuals', '/manuals/m1', '/share/s1']) {
      const step = await accessStep(await pageRequest(path, user.id));
      expect('redirect' in step, path).toBe(true);
      const redirect = (step as { redirect: Response }).redirect;
      expect(new URL(redirect.headers.get('location')!).pathname).toBe('/signin');
      expect(redirect.headers.getSetCookie().join()).toMatch(/authjs\.session-token=;.*Max-Age=0/i);
    }
  });

  it('a password change or a sign-out ends the sessions issued before it, and clears their cookie', async () => {
    const user = await createUser({ email: 'changer@example.com', role: 'member' });
    expect(await accessStep(await pageRequest('/manuals', user.id, 0))).toEqual({});
    await updateUser(user.id, { passwordHash: 'scrypt$new' });
    const step = await accessStep(await pageRequest('/manuals', user.id, 0));
    expect('redirect' in step).toBe(true);
    expect((step as { redirect: Response }).redirect.headers.getSetCookie().join()).toMatch(/authjs\.session-token=;.*Max-Age=0/i);
    expect(await accessStep(await pageRequest('/manuals', user.id, 1))).toEqual({});
    await endSessions(user.id); // what signing out does
    expect('redirect' in (await accessStep(await pageRequest('/manuals', user.id, 1)))).toBe(true);
    expect(await accessStep(await pageRequest('/manuals', user.id, 2))).toEqual({});
    // A name change ends nothing; a token from before session versions is refused.
    await updateUser(user.id, { name: 'Renamed' });
    expect(await accessStep(await pageRequest('/manuals', user.id, 2))).toEqual({});
    expect('redirect' in (await accessStep(await pageRequest('/manuals', user.id, undefined)))).toBe(true);
  });

  it('a token naming no account at all is refused the same way', async () => {
    const step = await accessStep(await pageRequest('/manuals', 'forged-id'));
    expect('redirect' in step).toBe(true);
  });
});

describe('server actions (POSTs to pages) from another site', () => {
  const post = (headers: Record<string, string>) =>
    accessStep(new NextRequest('http://app.test/signin', { method: 'POST', headers: { host: 'app.test', 'next-action': 'abc', ...headers } }));

  it('refuses Sec-Fetch-Site: cross-site without an Origin, and a foreign Origin', async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of cases) {
      const step = await post(headers);
      expect('refuse' in step, JSON.stringify(headers)).toBe(true);
      expect((step as { refuse: Response }).refuse.status).toBe(403);
    }
  });

  it('lets same-origin actions through', async () => {
    expect(await post({ origin: 'http://app.test', 'sec-fetch-site': 'same-origin' })).toEqual({});
    expect(await post({ 'sec-fetch-site': 'same-origin' })).toEqual({});
  });
});

describe('local mode: the owner cookie', () => {
  const withLocalMode = async (run: () => Promise<void>) => {
    delete process.env.MC_AUTH;
    try {
      await run();
    } finally {
      process.env.MC_AUTH = 'signin';
    }
  };

  it('a first page mints one; a shared chat (page or its actions) does not, so a link-only visitor holds no identity', () =>
    withLocalMode(async () => {
      for (const path of ['/', '/manuals', '/settings', '/chat/c1']) {
        const step = await accessStep(new NextRequest(`http://app.test${path}`));
        expect(step, path).toHaveProperty('mintedCookie');
      }
      for (const path of ['/share/AAAAAAAAAAAAAAAAAAAAAA', '/share']) expect(await accessStep(new NextRequest(`http://app.test${path}`)), path).toEqual({});
      const action = new NextRequest('http://app.test/share/AAAAAAAAAAAAAAAAAAAAAA', {
        method: 'POST',
        headers: { host: 'app.test', origin: 'http://app.test', 'next-action': 'abc' },
      });
      expect(await accessStep(action)).toEqual({});
      // Not a prefix match on the word: a path that only begins with "share" is an app page.
      expect(await accessStep(new NextRequest('http://app.test/shared-things'))).toHaveProperty('mintedCookie');
    }));
});
