/**
 * The access model on a network: a second server of the same build
 * listens on 0.0.0.0, so sign-in is required. Signing in as the admin and as a member shows the
 * rules: members manage their own manuals only; admins manage every manual and the users.
 */
import fs from 'node:fs';
import { type Browser, type BrowserContext, expect, test } from '@playwright/test';
import { startNetworkServer, type NetworkServer } from './network-server';
import { SettingsPage } from './pages/settings-page';
import { uniqueSamplePdf } from './sample-pdf';

const PORT = Number(process.env.E2E_PORT ?? 3107) + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_PASSWORD = 'admin-e2e-password-1';
const MEMBER = { email: 'tech@example.com', password: 'member-e2e-password-1' };
let server: NetworkServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

test.beforeAll(async () => {
  // The build the main web server made; only the interface differs (HOST=0.0.0.0 → sign-in required).
  server = await startNetworkServer(PORT, ADMIN_PASSWORD, 'network');
});

test.afterAll(() => server.stop());

async function signIn(browser: Browser, email: string, password: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto('/manuals');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fmanuals/);
  await page.getByLabel('Name or email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/manuals$/);
  await expect(page.getByTestId('page-title')).toHaveText('Manuals');
  return context;
}

async function uploadSample(context: BrowserContext, tag: string): Promise<string> {
  const pdf = await uniqueSamplePdf(tag);
  const res = await context.request.post('/api/manuals', {
    data: fs.readFileSync(pdf.path),
    headers: { 'content-type': 'application/pdf', 'x-file-name': pdf.fileName },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).manual.id;
}

test('without signing in: pages redirect to /signin, the API answers 401', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  for (const [method, url] of [
    ['GET', '/api/manuals'],
    ['POST', '/api/manuals'],
    ['DELETE', '/api/manuals/x'],
    ['POST', '/api/chat'],
    ['GET', '/api/users'],
    ['GET', '/manuals/x/pages/1/image'],
    ['GET', '/manuals/x/pages/1/thumb'],
    ['GET', '/manuals/x/pages/1/zoom?scale=3'],
  ] as const) {
    const data = method === 'GET' ? undefined : url === '/api/chat' ? { sessionId: 'anonymous-1', question: 'hello?' } : '{}';
    const res = await context.request.fetch(url, { method, data });
    expect(res.status(), `${method} ${url}`).toBe(401);
  }
  // A wrong password says so, and signs no one in.
  await page.getByLabel('Name or email').fill('admin');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signin-error')).toContainText('do not match');
  await context.close();
});

test('admin and member: members manage their own manuals, admins every manual and the users', async ({ browser }) => {
  const admin = await signIn(browser, 'admin', ADMIN_PASSWORD);
  const created = await admin.request.post('/api/users', { data: { email: MEMBER.email, password: MEMBER.password, role: 'member' } });
  expect(created.status()).toBe(201);
  const adminManual = await uploadSample(admin, 'admin');

  const member = await signIn(browser, MEMBER.email, MEMBER.password);
  expect((await member.request.get('/api/users')).status()).toBe(403);
  expect((await member.request.post('/api/users', { data: { email: 'x@y.z', password: 'long-enough-1', role: 'admin' } })).status()).toBe(403);
  const memberManual = await uploadSample(member, 'member');

  // The library shows each person what they may delete.
  const canDelete = async (ctx: BrowserContext) =>
    Object.fromEntries(
      ((await (await ctx.request.get('/api/manuals')).json()).manuals as Array<{ id: string; canDelete: boolean }>).map((m) => [m.id, m.canDelete]),
    );
  expect(await canDelete(member)).toEqual({ [adminManual]: false, [memberManual]: true });
  expect(await canDelete(admin)).toEqual({ [adminManual]: true, [memberManual]: true });
  const page = await member.newPage();
  await page.goto('/manuals');
  await expect(page.locator(`[data-manual-id="${memberManual}"]`).getByTestId('delete-manual')).toBeVisible();
  await expect(page.locator(`[data-manual-id="${adminManual}"]`).getByTestId('delete-manual')).toHaveCount(0);

  // Signed-in people ask questions as themselves: the chat is the member's, not the admin's.
  await expect
    .poll(async () => ((await (await member.request.get('/api/manuals')).json()).manuals as Array<{ status: string }>).some((m) => m.status === 'ready'), {
      timeout: 150_000,
    })
    .toBe(true);
  // Every page-derived byte of a ready manual — image, thumbnail, zoom (rendered in a PDF
  // worker) — is 401 without a session and cached only privately with one.
  const readyId = ((await (await member.request.get('/api/manuals')).json()).manuals as Array<{ id: string; status: string }>).find(
    (m) => m.status === 'ready',
  )!.id;
  const anonymous = await browser.newContext({ baseURL: BASE });
  for (const kind of ['image', 'thumb', 'zoom?scale=3']) {
    const url = `/manuals/${readyId}/pages/1/${kind}`;
    expect((await anonymous.request.get(url)).status(), `${url} without a session`).toBe(401);
    const res = await member.request.get(url);
    expect(res.status(), url).toBe(200);
    expect(res.headers()['cache-control'], url).toBe('private, max-age=31536000, immutable');
  }
  await anonymous.close();

  const sessionId = `member-chat-${Date.now()}`;
  const asked = await member.request.post('/api/chat', { data: { sessionId, question: 'What is the rated supply voltage?' } });
  expect(asked.status()).toBe(200);
  await asked.body();
  const chatPage = await member.newPage();
  await chatPage.goto(`/chat/${sessionId}`);
  await expect(chatPage.getByText('What is the rated supply voltage?').first()).toBeVisible();
  const adminView = await (await admin.newPage()).goto(`/chat/${sessionId}`);
  expect(adminView?.status()).toBe(404);

  // API keys act as their creator: only an admin creates one on a network; a script uses it with
  // no cookie and no Origin, past the sign-in and origin guards of the browser routes.
  const memberSettings = new SettingsPage(await member.newPage());
  await memberSettings.goto();
  await expect(memberSettings.page.getByTestId('api-key-create-refused')).toContainText('Only an administrator');
  await expect(memberSettings.createButton()).toHaveCount(0);
  // Users on Settings: members are told an administrator manages them.
  await expect(memberSettings.page.getByTestId('users-admin-only')).toBeVisible();
  await expect(memberSettings.users()).toHaveCount(0);
  const adminSettings = new SettingsPage(await admin.newPage());
  await adminSettings.goto();
  await expect(adminSettings.providers()).toBeVisible();
  // Admins list, add, promote and remove users; removing asks first.
  await expect(adminSettings.userItems()).toHaveCount(2);
  await adminSettings.addUser('settings-ui@example.com', 'settings-ui-password-1');
  const uiUser = adminSettings.userItems().filter({ hasText: 'settings-ui@example.com' });
  await expect(uiUser.getByTestId('user-role')).toHaveValue('member');
  await uiUser.getByTestId('user-role').selectOption('admin');
  await expect(adminSettings.page.getByTestId('users-notice')).toContainText('now an administrator');
  await adminSettings.page.reload();
  await expect(uiUser.getByTestId('user-role')).toHaveValue('admin');
  // The built-in admin (and one's own account) cannot be demoted or removed from here.
  await expect(
    adminSettings
      .userItems()
      .filter({ hasText: /^admin/ })
      .getByTestId('remove-user'),
  ).toHaveCount(0);
  await adminSettings.removeUser('settings-ui@example.com', { confirm: false });
  await adminSettings.removeUser('settings-ui@example.com');
  await adminSettings.page.reload();
  await expect(adminSettings.userItems()).toHaveCount(2);
  const key = await adminSettings.createKey('network script');
  const bearer = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const apiAsk = await fetch(`${BASE}/api/v1/ask`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ question: 'What is the rated supply voltage?' }),
  });
  expect(apiAsk.status).toBe(200);
  expect((await apiAsk.json()).status).toBe('done');
  const mcp = await fetch(`${BASE}/api/mcp`, {
    method: 'POST',
    headers: { ...bearer, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(mcp.status).toBe(200);
  expect(JSON.stringify(await mcp.json())).toContain('search_manuals');
  expect((await fetch(`${BASE}/api/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question":"hi?"}' })).status).toBe(401);

  // A member cannot delete the admin's manual; an admin can delete a member's.
  expect((await member.request.delete(`/api/manuals/${adminManual}`)).status()).toBe(403);
  expect((await admin.request.delete(`/api/manuals/${memberManual}`)).status()).toBe(204);
  const second = await uploadSample(member, 'member-2');
  expect((await member.request.delete(`/api/manuals/${second}`)).status()).toBe(204);

  // Admins manage users: demote is refused for the built-in admin; removing the member works.
  const users = (await (await admin.request.get('/api/users')).json()).users as Array<{ id: string; email: string; role: string }>;
  expect(users.map((u) => [u.email, u.role])).toEqual([
    ['admin', 'admin'],
    [MEMBER.email, 'member'],
  ]);
  expect((await admin.request.patch('/api/users/admin', { data: { role: 'member' } })).status()).toBe(403);
  const memberId = users.find((u) => u.email === MEMBER.email)!.id;
  expect((await admin.request.delete(`/api/users/${memberId}`)).status()).toBe(204);
  // The removed member's session no longer grants anything.
  expect((await member.request.get('/api/manuals')).status()).toBe(401);
  await member.close();
  await admin.close();
});
