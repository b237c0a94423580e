/**
 * Sign-in hardening against the built app in sign-in mode (its own server of the same build on 0.0.0.0):
 * sessions end with their account, unknown users are 404, cross-site server actions are refused,
 * and password guessing on Auth.js's own route is throttled by the socket address, whatever
 * X-Forwarded-For the client sends (no trusted proxy here). Sessions also end with a password change
 * and a sign-out; a repeated name field is refused; a burst gets no more passwords checked than the limit.
 */
import http from 'node:http';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { startNetworkServer, type NetworkServer } from './network-server';

const PORT = Number(process.env.E2E_PORT ?? 3107) + 2;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_PASSWORD = 'admin-e2e-password-34';
let server: NetworkServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test.beforeAll(async () => {
  // The build the main web server made; only the interface differs (HOST=0.0.0.0 → sign-in required).
  server = await startNetworkServer(PORT, ADMIN_PASSWORD, 'signin');
});

test.afterAll(() => server.stop());

/** Auth.js's own sign-in route, as a script (or an attacker) uses it: CSRF token, then the form post. */
async function credentials(ctx: APIRequestContext, email: string, password: string, headers: Record<string, string> = {}) {
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  return ctx.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, callbackUrl: `${BASE}/` }, headers, maxRedirects: 0 });
}

async function signedIn(email: string, password: string): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL: BASE });
  const res = await credentials(ctx, email, password);
  expect(res.status()).toBe(302);
  expect((await ctx.storageState()).cookies.some((c) => c.name === 'authjs.session-token')).toBe(true);
  return ctx;
}

test('removing a user ends their session: their pages go to /signin; unknown users are 404', async () => {
  const admin = await signedIn('admin', ADMIN_PASSWORD);
  const created = await admin.post('/api/users', { data: { email: 'leaver@example.com', password: 'leaver-password-1', role: 'member' } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { user: { id: string } }).user.id;
  const member = await signedIn('leaver@example.com', 'leaver-password-1');
  for (const url of ['/', '/manuals']) expect((await member.get(url, { maxRedirects: 0 })).status(), url).toBe(200);

  expect((await admin.delete(`/api/users/${id}`)).status()).toBe(204);
  for (const url of ['/', '/manuals', '/manuals/any-id', '/share/any-share-id']) {
    const res = await member.get(url, { maxRedirects: 0 });
    expect(res.status(), url).toBe(307);
    expect(new URL(res.headers().location, BASE).pathname, url).toBe('/signin');
  }
  expect((await member.get('/api/manuals')).status()).toBe(401);

  expect((await admin.delete(`/api/users/${id}`)).status()).toBe(404);
  expect((await admin.delete('/api/users/no-such-user')).status()).toBe(404);
  await member.dispose();
  await admin.dispose();
});

/** Whether a context's pages are served (200) or sent to /signin. */
async function servedOrSignIn(ctx: APIRequestContext): Promise<'served' | 'signin'> {
  const res = await ctx.get('/manuals', { maxRedirects: 0 });
  if (res.status() === 200) return 'served';
  expect(res.status()).toBe(307);
  expect(new URL(res.headers().location, BASE).pathname).toBe('/signin');
  return 'signin';
}

test('a password change and a sign-out end the sessions issued before them', async () => {
  const admin = await signedIn('admin', ADMIN_PASSWORD);
  const created = await admin.post('/api/users', { data: { email: 'changer@example.com', password: 'changer-password-1', role: 'member' } });
  const id = ((await created.json()) as { user: { id: string } }).user.id;
  const before = await signedIn('changer@example.com', 'changer-password-1');
  expect(await servedOrSignIn(before)).toBe('served');
  expect((await admin.patch(`/api/users/${id}`, { data: { password: 'changer-password-2' } })).status()).toBe(200);
  expect(await servedOrSignIn(before)).toBe('signin');
  expect((await before.get('/api/manuals')).status()).toBe(401);

  // Signing out: a copy of the cookie kept from before (another tab, a thief) is worth nothing.
  const session = await signedIn('changer@example.com', 'changer-password-2');
  const copy = await request.newContext({ baseURL: BASE, storageState: await session.storageState() });
  expect(await servedOrSignIn(copy)).toBe('served');
  const { csrfToken } = (await (await session.get('/api/auth/csrf')).json()) as { csrfToken: string };
  expect((await session.post('/api/auth/signout', { form: { csrfToken, callbackUrl: `${BASE}/signin` }, maxRedirects: 0 })).status()).toBe(302);
  expect(await servedOrSignIn(copy)).toBe('signin');
  expect((await copy.get('/api/manuals')).status()).toBe(401);
  for (const ctx of [admin, before, session, copy]) await ctx.dispose();
});

test('a credentials post that repeats the name is refused (400) and checks no password', async () => {
  const ctx = await request.newContext({ baseURL: BASE });
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const body = (first: string) =>
    new URLSearchParams([
      ['csrfToken', csrfToken],
      ['email', first],
      ['email', 'admin'],
      ['password', ADMIN_PASSWORD],
      ['callbackUrl', `${BASE}/`],
    ]).toString();
  for (const first of ['decoy-1', 'zz']) {
    const res = await ctx.post('/api/auth/callback/credentials', {
      data: body(first),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(400);
  }
  expect((await ctx.storageState()).cookies.some((c) => c.name === 'authjs.session-token')).toBe(false);
  await ctx.dispose();
});

test('a server action sent cross-site without an Origin is refused', async () => {
  const ctx = await request.newContext({ baseURL: BASE });
  const res = await ctx.post('/signin', {
    headers: { 'next-action': '0'.repeat(42), 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
    data: '[]',
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  await ctx.dispose();
});

test('invalid API keys: 401 each, then 429 for the address, whatever X-Forwarded-For says', async () => {
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${BASE}/api/v1/ask`, {
      method: 'POST',
      headers: { authorization: `Bearer mc_guess${i}`, 'x-forwarded-for': `203.0.113.${i}` },
      body: '{}',
    });
    expect(res.status, `key ${i + 1}`).toBe(401);
  }
  expect(
    (await fetch(`${BASE}/api/v1/ask`, { method: 'POST', headers: { authorization: 'Bearer mc_guess-more', 'x-forwarded-for': '203.0.113.250' }, body: '{}' }))
      .status,
  ).toBe(429);
});

test('password guessing on /api/auth/callback/credentials: the 31st failure in a minute gets 429, the right password too', async () => {
  const ctx = await request.newContext({ baseURL: BASE });
  // Another name and another forged X-Forwarded-For each time: the socket address still counts them.
  for (let i = 0; i < 30; i++) {
    const res = await credentials(ctx, `guess-${i}@example.com`, 'wrong-password', { 'x-forwarded-for': `198.51.100.${i}` });
    expect(res.status(), `attempt ${i + 1}`).toBe(302);
    expect(res.headers().location).toContain('error=');
  }
  const blocked = await credentials(ctx, 'admin', ADMIN_PASSWORD, { 'x-forwarded-for': '198.51.100.250' });
  expect(blocked.status()).toBe(429);
  expect(Number(blocked.headers()['retry-after'])).toBeGreaterThan(0);
  expect((await ctx.storageState()).cookies.some((c) => c.name === 'authjs.session-token')).toBe(false);
  await ctx.dispose();
});

/**
 * `n` concurrent credentials posts from the socket address `from` (a loopback address of its own,
 * so the other tests' address is not locked out): their statuses.
 */
async function credentialsBurst(n: number, from: string, email: string, passwords: (i: number) => string): Promise<number[]> {
  const csrf = await fetch(`${BASE}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const post = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const body = new URLSearchParams({ csrfToken, email, password: passwords(i), callbackUrl: `${BASE}/` }).toString();
      const req = http.request(
        `${BASE}/api/auth/callback/credentials`,
        {
          method: 'POST',
          agent,
          localAddress: from,
          timeout: 120_000,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), cookie },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  try {
    return await Promise.all(Array.from({ length: n }, (_, i) => post(i)));
  } finally {
    agent.destroy();
  }
}

test('a burst of 150 concurrent tries from one address: 30 passwords are checked, the rest 429, then the right one 429 too', async () => {
  const statuses = await credentialsBurst(150, '127.0.0.2', 'admin', (i) => (i === 149 ? ADMIN_PASSWORD : `wrong-${i}`));
  const checked = statuses.filter((s) => s !== 429);
  expect(checked.length).toBe(30);
  expect(checked.every((s) => s === 302)).toBe(true);
  const [after] = await credentialsBurst(1, '127.0.0.2', 'admin', () => ADMIN_PASSWORD);
  expect(after).toBe(429);
});
