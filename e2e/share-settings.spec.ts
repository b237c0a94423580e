/**
 * Sharing from a loopback address warns that only this computer can open the link; a
 * visitor's shared page has the conversation and its citations only (no app navigation, no link
 * into the library); a visitor's direct delete — the API route and the server action, from a
 * cookieless client and from the visitor's own browser — is refused;
 * Settings shows the providers, and its destructive actions (and a manual's delete) ask first.
 * At 1280×800 and on a 375×800 phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { request as playwrightRequest } from '@playwright/test';
import { OWNER_COOKIE } from '../lib/auth/owner-cookie';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { SettingsPage } from './pages/settings-page';
import { uniqueSamplePdf } from './sample-pdf';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 800 },
] as const;

/**
 * The id a browser sends in `Next-Action` to call a server action, from the build's manifest
 * (the same lookup Next's own tooling does): what a visitor would replay by hand.
 */
function serverActionId(file: string, name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, e]) => e.exportedName === name && e.filename?.replace(/\\/g, '/').endsWith(file));
  if (!found) throw new Error(`no server action ${file}#${name} in the build's manifest`);
  return found[0];
}

test.describe('sharing, settings and confirmations', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  for (const vp of VIEWPORTS) {
    test.describe(vp.name, () => {
      test.use({ viewport: { width: vp.width, height: vp.height } });

      test('a loopback share link warns; the shared page has no app nav or library link; a visitor’s direct deletes are refused', async ({
        page,
        browser,
        baseURL,
      }) => {
        test.setTimeout(180_000);
        const owner = new ChatPage(page);
        await owner.askInNewChat('What supply voltage does the HX-200 controller need?');
        const chatId = await owner.chatId();

        // The app is opened at 127.0.0.1 with no PUBLIC_URL: the dialog says only this computer can open the link, and how to change that.
        await owner.shareButton().click();
        const warning = page.getByTestId('share-local-warning');
        await expect(warning).toBeVisible();
        await expect(warning).toContainText('Only this computer can open this link');
        await expect(warning).toContainText('PUBLIC_URL');
        await expect(warning).toContainText('HOST=0.0.0.0');
        await page.getByTestId('create-share-link').click();
        await expect(owner.shareLink()).toHaveValue(new RegExp(`^${baseURL}/share/[A-Za-z0-9_-]{22}$`));
        await expect(warning).toBeVisible();
        const url = await owner.shareLink().inputValue();
        await page.keyboard.press('Escape');

        // A visitor (another browser, no cookie) sees the conversation and its citations only.
        const visitorContext = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
        const visitorPage = await visitorContext.newPage();
        const visitor = new ChatPage(visitorPage);
        expect((await visitorPage.goto(url))?.status()).toBe(200);
        await expect(visitorPage.getByTestId('shared-chat')).toBeVisible();
        await expect(visitorPage.getByTestId('share-shell')).toBeVisible();
        await expect(visitor.answer()).toBeVisible();
        for (const id of ['nav-chat', 'nav-manuals', 'nav-settings', 'home-link']) await expect(visitorPage.getByTestId(id)).toHaveCount(0);
        await expect(visitorPage.getByRole('navigation')).toHaveCount(0);
        await expect(visitorPage.locator('a[href^="/manuals"], a[href^="/settings"]')).toHaveCount(0);
        await visitor.citations().first().click();
        await expect(visitor.highlights().first()).toBeVisible();
        await expect(visitor.preview().getByTestId('open-in-viewer')).toHaveCount(0);
        await expect(visitorPage.locator('a[href^="/manuals"]')).toHaveCount(0);
        await visitorPage.keyboard.press('Escape');

        // The owner's manual and chat, which the visitor's direct requests go for.
        await page.goto('/manuals');
        const manualId = await new ManualsPage(page).row('acme-hx200-manual').first().getAttribute('data-manual-id');
        expect(manualId).toBeTruthy();
        const deleteSession = serverActionId('actions/sessions.ts', 'deleteSession');
        const actionPost = (req: typeof visitorContext.request) =>
          req.post('/', {
            headers: { 'next-action': deleteSession, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component', origin: baseURL! },
            data: JSON.stringify([{ sessionId: chatId }]),
          });

        // No owner cookie at all: the API delete is a 401, the action deletes nothing.
        const cookieless = await playwrightRequest.newContext({ baseURL });
        expect((await cookieless.delete(`/api/manuals/${manualId}`)).status()).toBe(401);
        expect([401, 403, 404, 405]).toContain((await cookieless.post(`/api/manuals/${manualId}`)).status());
        const anonymous = await actionPost(cookieless);
        expect(anonymous.status()).toBe(200);
        expect(await anonymous.text()).toMatch(/"ok":false/);
        await cookieless.dispose();

        // The visitor's own browser, which only followed the link: the shared page gave it no
        // identity, so its direct deletes (the library's API route and the chat's action) are refused.
        expect((await visitorContext.cookies()).map((c) => c.name)).not.toContain(OWNER_COOKIE);
        expect((await visitorContext.request.delete(`/api/manuals/${manualId}`)).status()).toBe(401);
        expect([401, 403, 404, 405]).toContain((await visitorContext.request.post(`/api/manuals/${manualId}`)).status());
        expect(await (await actionPost(visitorContext.request)).text()).toMatch(/"ok":false,"code":"not_found:chat"/);

        // "Continue in a new chat" makes the visitor an owner of a copy, not of the original: the
        // owner's chat is still not theirs to delete.
        await visitorPage.goto(url);
        await visitorPage.getByTestId('fork-button').click();
        await expect(visitorPage).toHaveURL(/\/chat\/[\w-]+$/);
        expect(new URL(visitorPage.url()).pathname).not.toBe(`/chat/${chatId}`);
        expect(await (await actionPost(visitorContext.request)).text()).toMatch(/"ok":false,"code":"not_found:chat"/);

        // Both left everything in place: the chat, its share link and the manual.
        expect((await page.goto(`/chat/${chatId}`))?.status()).toBe(200);
        await expect(owner.answer()).toBeVisible();
        expect((await visitorPage.goto(url))?.status()).toBe(200);
        expect((await page.request.get('/api/manuals')).ok()).toBe(true);
        expect(JSON.stringify(await (await page.request.get('/api/manuals')).json())).toContain(manualId!);
        await visitorContext.close();
      });

      test('Settings shows the providers; revoking a key and deleting a manual ask first', async ({ page }) => {
        test.setTimeout(240_000);
        const settings = new SettingsPage(page);
        await settings.goto();
        await expect(settings.providers()).toBeVisible();
        await expect(page.getByTestId('provider-vectorDb')).toContainText('LanceDB');
        await expect(page.getByTestId('provider-llm')).toContainText('None');
        await expect(page.getByTestId('provider-ocr')).toContainText(/tesseract/i);
        await expect(page.getByTestId('provider-reranker')).toBeVisible();
        // The Manuals page no longer carries them; it points here.
        await page.goto('/manuals');
        await expect(page.getByTestId('provider-summary')).toHaveCount(0);
        await page.getByTestId('providers-link').click();
        await expect(page).toHaveURL(/\/settings$/);

        // Revoke: Cancel keeps the key, confirming revokes it.
        const name = `confirm ${vp.name}`;
        await settings.createKey(name);
        await settings.revokeButCancel(name);
        await page.reload();
        await expect(settings.keys().filter({ hasText: name })).toHaveAttribute('data-revoked', 'false');
        await settings.revoke(name);
        await page.reload();
        await expect(settings.keys().filter({ hasText: name })).toHaveAttribute('data-revoked', 'true');

        // Delete a manual: Cancel keeps it, confirming removes it.
        const manuals = new ManualsPage(page);
        await manuals.goto();
        const pdf = await uniqueSamplePdf(`confirm-${vp.name}`);
        await manuals.upload(pdf.path);
        const row = manuals.row(pdf.fileName);
        await expect(row).toHaveCount(1);
        await manuals.expectReady(row);
        await manuals.delete(row, { confirm: false });
        await page.reload();
        await expect(row).toHaveCount(1);
        await manuals.delete(row);
        await page.reload();
        await expect(row).toHaveCount(0);
      });
    });
  }
});
