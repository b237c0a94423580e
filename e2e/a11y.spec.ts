/**
 * axe-core finds no serious or critical violation on any page kind, in light
 * and dark, at 1280×800 and on a 390×844 phone — with the screens in their states: a
 * manual's search results (on the thumbnail grid and on a page with its match highlighted), the
 * viewer opened from a citation, the share dialog's loopback warning, the closest-pages cards,
 * Settings and the shared page.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ChatPage, UNANSWERED_QUESTION } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Serious and critical violations, one line per rule and node, to read in the failure message. */
async function violations(page: Page, what: string, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${what}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(0, 2).join(' ')}`));
}

for (const vp of VIEWPORTS) {
  test.describe(`accessibility at ${vp.name}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test('no serious or critical axe violation on any page kind, light and dark', async ({ page, browser }) => {
      test.setTimeout(300_000);
      const chat = new ChatPage(page);
      await chat.ensureSampleManualReady();

      // Material for the page kinds: an answered chat, its share link and the viewer its citation
      // opens, a declined question's closest pages, the sample manual and its pages.
      await chat.askInNewChat('What supply voltage does the HX-200 controller need?');
      const chatUrl = new URL(page.url()).pathname;
      await chat.shareButton().click();
      await page.getByTestId('create-share-link').click();
      const shareUrl = new URL(await chat.shareLink().inputValue()).pathname;
      await page.keyboard.press('Escape');
      await chat.citations().first().click();
      const citedViewerUrl = (await chat.preview().getByTestId('open-in-viewer').getAttribute('href'))!;
      await page.keyboard.press('Escape');
      await chat.askInNewChat(UNANSWERED_QUESTION);
      await expect(chat.lastTurn().getByTestId('page-card').first()).toBeVisible();
      const closestPagesUrl = new URL(page.url()).pathname;
      await page.goto('/manuals');
      const manualUrl = new URL(
        await new ManualsPage(page)
          .row('acme-hx200-manual')
          .getByTestId('manual-link')
          .evaluate((a: HTMLAnchorElement) => a.href),
      ).pathname;
      /** Searches the manual for a value on several pages: its page opens with the first match boxed. */
      const findInManual = async () => {
        await page.getByLabel('Search this manual').fill('24 V');
        await page.getByLabel('Search this manual').press('Enter');
        await expect(page.getByTestId('find-status')).toHaveText(/^1 of \d+$/);
        await expect(page.getByTestId('highlight-value').or(page.getByTestId('highlight')).first()).toBeVisible();
      };

      const found: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const check = async (path: string, what: string, prepare?: () => Promise<void>, include?: string) => {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
          if (prepare) await prepare();
          found.push(...(await violations(page, `${scheme} ${what}`, include)));
        };
        await check('/', 'empty chat');
        await check(chatUrl, 'answered chat');
        await check(chatUrl, 'answered chat, trail open', async () => {
          await chat.lastTurn().getByTestId('trail-toggle').click();
          await chat.lastTurn().getByTestId('trail-details-toggle').click();
        });
        await check(
          chatUrl,
          'citation preview',
          async () => {
            await chat.citations().first().click();
            await expect(chat.preview().getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
          },
          '[data-testid="page-preview"]',
        );
        await check('/manuals', 'library');
        await check(manualUrl, 'manual pages');
        await check(`${manualUrl}?page=1`, 'page viewer');
        await check(manualUrl, 'manual search: a match on its page', findInManual);
        await check(manualUrl, 'manual search: results over the thumbnails', async () => {
          await findInManual();
          await page.getByTestId('all-pages').click();
          await expect(page.getByTestId('thumbnail-grid')).toBeVisible();
          await expect(page.getByTestId('find-result').first()).toBeVisible();
        });
        await check(citedViewerUrl, 'page viewer opened from a citation', async () => {
          await expect(page.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
          await expect(page.getByTestId('highlight').first()).toBeVisible();
        });
        await check(
          chatUrl,
          'share dialog with the loopback warning',
          async () => {
            await chat.shareButton().click();
            await expect(page.getByTestId('share-local-warning')).toBeVisible();
            await expect(chat.shareLink()).toBeVisible();
          },
          '[data-testid="share-dialog"]',
        );
        await check(closestPagesUrl, 'closest-pages cards', async () => {
          await expect(chat.lastTurn().getByTestId('page-card').first()).toBeVisible();
        });
        await check('/settings', 'settings');
        const other = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, colorScheme: scheme });
        const otherPage = await other.newPage();
        await otherPage.goto(shareUrl);
        await otherPage.waitForLoadState('networkidle');
        found.push(...(await violations(otherPage, `${scheme} shared chat`)));
        await other.close();
      }
      expect(found).toEqual([]);
    });
  });
}
