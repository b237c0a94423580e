/**
 * Issue 34 against the built app in sign-in mode (its own server of the same build on 0.0.0.0):
 * sessions end with their account, unknown users are 404, cross-site server actions are refused,
 * and password guessing on Auth.js's own route is throttled by the socket address, whatever
 * X-Forwarded-For the client sends (no trusted proxy here).
 */
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

test('a server action sent cross-site without an Origin is refused', async () => {
  const ctx = await request.newContext({ baseURL: BASE });
  const res = await ctx.post('/signin', { headers: { 'next-action': '0'.repeat(42), 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }, data: '[]', maxRedirects: 0 });
  expect(res.status()).toBe(403);
  await ctx.dispose();
});

test('invalid API keys: 401 each, then 429 for the address, whatever X-Forwarded-For says', async () => {
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${BASE}/api/v1/ask`, { method: 'POST', headers: { authorization: `Bearer mc_guess${i}`, 'x-forwarded-for': `203.0.113.${i}` }, body: '{}' });
    expect(res.status, `key ${i + 1}`).toBe(401);
  }
  expect((await fetch(`${BASE}/api/v1/ask`, { method: 'POST', headers: { authorization: 'Bearer mc_guess-more', 'x-forwarded-for': '203.0.113.250' }, body: '{}' })).status).toBe(429);
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
