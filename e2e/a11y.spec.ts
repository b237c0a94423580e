/**
 * Issue 17 point 9: axe-core finds no serious or critical violation on any page kind, in light
 * and dark, at 1280×800 and on a 390×844 phone.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

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

      // Material for the page kinds: an answered chat, its share link, a manual and one of its pages.
      await chat.askInNewChat('What supply voltage does the HX-200 controller need?');
      const chatUrl = new URL(page.url()).pathname;
      await chat.shareButton().click();
      await page.getByTestId('create-share-link').click();
      const shareUrl = new URL(await chat.shareLink().inputValue()).pathname;
      await page.keyboard.press('Escape');
      await page.goto('/manuals');
      const manualUrl = new URL(await page.getByTestId('manual-link').first().evaluate((a: HTMLAnchorElement) => a.href)).pathname;

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
