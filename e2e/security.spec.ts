import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page, Response } from '@playwright/test';
import { SECRET_ENV_VARS } from '../lib/providers/roles';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { SECRET_SENTINELS, secretsWithoutSentinel } from './secrets';

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

/** Fetches a page the way the browser would (same cookies) and checks its CSP; returns the nonce. */
async function expectStrictCsp(request: APIRequestContext, url: string): Promise<{ nonce: string; html: string }> {
  const res = await request.get(url);
  const csp = res.headers()['content-security-policy'] ?? '';
  const d = directives(csp);
  const script = d.get('script-src') ?? [];
  const nonce = script.find((v) => v.startsWith("'nonce-"))?.slice("'nonce-".length, -1) ?? '';
  expect(nonce, `script-src of ${url}: ${script.join(' ')}`).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(script).toContain("'strict-dynamic'");
  expect(script).not.toContain("'unsafe-inline'");
  expect(script).not.toContain("'unsafe-eval'");
  // Style elements need the nonce too; only style attributes stay inline (see lib/security/headers.mjs).
  expect(d.get('style-src')).not.toContain("'unsafe-inline'");
  expect(d.get('style-src')).toContain(`'nonce-${nonce}'`);
  for (const [name, value] of [
    ['default-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ]) {
    expect(d.get(name), `${name} of ${url}`).toEqual([value]);
  }
  expect(res.headers()['x-frame-options']).toBe('DENY');
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
  return { nonce, html: await res.text() };
}

/** Records CSP violations in the page (an init script is not itself subject to the CSP). */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
}

/** The sample manual's own page (the library may hold other specs' uploads too). */
async function openSampleManual(page: Page) {
  const manuals = new ManualsPage(page);
  await manuals.goto();
  await manuals.row('acme-hx200-manual').getByTestId('manual-link').click();
  await expect(page).toHaveURL(/\/manuals\/[\w-]+$/);
  await expect(page.getByTestId('page-thumb')).toHaveCount(10);
}

/** The header's theme toggle answers clicks only once React has hydrated the page. */
async function expectInteractive(page: Page) {
  const saved = () => page.evaluate(() => localStorage.getItem('mc-theme'));
  const before = await saved();
  await expect(async () => {
    await page.getByTestId('theme-toggle').click();
    expect(await saved()).not.toBe(before);
  }).toPass({ timeout: 15_000 });
}

test.describe('security', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('every page kind gets a fresh nonce CSP, every script carries it, nothing is blocked and the page hydrates', async ({ page }) => {
    test.setTimeout(180_000);
    await recordViolations(page);
    const chat = new ChatPage(page);

    // Make one of each page kind: a chat session and its share link.
    await chat.askInNewChat('What signal does the HX-200 expect from the pressure transducer?');
    const chatUrl = `/chat/${await chat.chatId()}`;
    await chat.shareButton().click();
    await page.getByTestId('create-share-link').click();
    await expect(chat.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
    const shareUrl = new URL(await chat.shareLink().inputValue()).pathname;
    await page.keyboard.press('Escape');
    await openSampleManual(page);
    const manualUrl = new URL(page.url()).pathname;

    const pages = ['/', '/manuals', manualUrl, `${manualUrl}?page=2`, chatUrl, shareUrl, '/no-such-page'];
    for (const url of pages) {
      const first = await expectStrictCsp(page.request, url);
      const second = await expectStrictCsp(page.request, url);
      expect(second.nonce, `a new nonce per request for ${url}`).not.toBe(first.nonce);

      // Every <script> in the server's HTML carries this response's nonce (Next's bootstrap and
      // chunks, the streamed RSC payload, the layout's theme script).
      const scripts = first.html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, `scripts in ${url}`).toBeGreaterThan(3);
      for (const tag of scripts) expect(tag, `in ${url}`).toContain(`nonce="${first.nonce}"`);

      // In the browser: no violation, and React has hydrated (a click changes the theme).
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(url === '/no-such-page' ? 404 : 200);
      await expectInteractive(page);
      expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), `CSP violations on ${url}`).toEqual([]);
    }
  });

  test('API routes, page images and static files keep working under the nonce-less policy', async ({ page }) => {
    await recordViolations(page);
    const health = await page.request.get('/api/health');
    expect(health.status()).toBe(200);
    expect((await health.json()).ok).toBe(true);
    const csp = directives(health.headers()['content-security-policy'] ?? '');
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);

    // A manual's page: its thumbnails and the full page image load (an <img> CSP would block is an error).
    await openSampleManual(page);
    const thumb = page.getByTestId('page-thumb').first().locator('img');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const src = await thumb.getAttribute('src');
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toMatch(/^image\//);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  });

  test('no secret reaches the browser: not in pages, payloads, answers or the built bundles', async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    expect(secretsWithoutSentinel(), 'secret variables without a sentinel in e2e/secrets.ts').toEqual([]);
    const sentinels = Object.values(SECRET_SENTINELS);

    // Every same-origin response the browser sees while using the app.
    const bodies: Array<Promise<{ url: string; text: string }>> = [];
    page.on('response', (res: Response) => {
      if (!res.url().startsWith(baseURL!) || /^(image|font)\//.test(res.headers()['content-type'] ?? '')) return;
      bodies.push(
        res.text().then(
          (text) => ({ url: res.url(), text }),
          () => ({ url: res.url(), text: '' }),
        ),
      );
    });
    const chat = new ChatPage(page);
    await chat.askInNewChat('What is the highest system pressure it can control?');
    await page.reload();
    await openSampleManual(page);
    await page.getByTestId('page-thumb').nth(1).click();
    await expect(page.getByTestId('page-image')).toBeVisible();
    const seen = await Promise.all(bodies);
    expect(
      seen.some((b) => b.url.includes('/api/chat')),
      'the answer stream was captured',
    ).toBe(true);
    expect(seen.length).toBeGreaterThan(10);
    for (const { url, text } of seen) {
      for (const s of sentinels) expect(text.includes(s), `${s} in ${url}`).toBe(false);
    }

    // The server really runs with the sentinels: the owner cookie is signed with SESSION_SECRET's.
    const cookie = (await context.cookies()).find((c) => c.name === 'mc_owner');
    expect(cookie).toBeDefined();
    const id = cookie!.value.slice(0, cookie!.value.lastIndexOf('.'));
    expect(cookie!.value).toBe(`${id}.${createHmac('sha256', SECRET_SENTINELS.SESSION_SECRET).update(id).digest('base64url')}`);

    // The built client bundles (the server built them with the sentinels in its environment)
    // hold neither a secret's value nor even its name (which would mean server config got bundled).
    const dir = path.join(import.meta.dirname, '..', '.next', 'static');
    const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(js|css|json|txt|html)$/.test(f));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      for (const s of [...sentinels, ...SECRET_ENV_VARS]) expect(text.includes(s), `${s} in .next/static/${f}`).toBe(false);
    }
  });
});
