/**
 * Finding one's way in a long manual: search inside a manual (matches with page and
 * snippet, next/previous, Enter / Shift+Enter, the count announced), go to page, the thumbnail
 * grid as one Tab stop with arrow keys, and pages that open at fit-width — on a desktop and on a
 * 375×800 phone, where nothing needs sideways panning. Values from lib/sample/facts.ts: "350 bar"
 * is on page 3 (the specification table), "24 V" is on several pages.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, phone: false },
  { name: 'phone', width: 375, height: 800, phone: true },
] as const;

test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

async function openManual(page: Page) {
  await page.goto('/manuals');
  // The sample manual itself (other specs' uploads may share the library).
  await new ManualsPage(page).row('acme-hx200-manual').getByTestId('manual-link').click();
  await expect(page.getByTestId('thumbnail-grid')).toBeVisible();
}

/** The element's box lies (at least its first 40 px) inside the window, below the sticky header. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const vp = page.viewportSize()!;
  // The header's height is the document's scroll-padding-top (app/globals.css).
  const top = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0);
  return !!box && box.y >= top && box.y + Math.min(box.height, 40) <= vp.height && box.x >= -0.5 && box.x + box.width <= vp.width + 0.5;
}

/**
 * No sideways panning, measured from scroll widths: neither the document nor the page's own scroll
 * box (the preview is a dialog that clips, so only its scroll box shows a page wider than the
 * screen) scrolls sideways, and the page image lies within the screen.
 */
async function expectNoSidewaysPanning(page: Page, scope: Page | Locator) {
  const vp = page.viewportSize()!;
  const doc = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(doc.scroll, 'document scrollWidth').toBeLessThanOrEqual(doc.client);
  const scroller = await scope.getByTestId('page-scroller').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroller.client, 'the page scroll box has a width').toBeGreaterThan(100);
  expect(scroller.scroll, 'page scroll box scrollWidth').toBeLessThanOrEqual(scroller.client);
  const box = (await scope.getByTestId('page-image').boundingBox())!;
  expect(box.width, 'page image width').toBeLessThanOrEqual(vp.width);
  expect(box.x, 'page image left edge').toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, 'page image right edge').toBeLessThanOrEqual(vp.width + 0.5);
}

async function seriousAxe(page: Page, what: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${what}: ${v.id} ${n.target.join(' ')}`));
}

for (const vp of VIEWPORTS) {
  test.describe(`find in a manual at ${vp.name} ${vp.width}×${vp.height}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test('search finds a value on its page, next/previous and Enter walk the matches, highlighted at fit-width', async ({ page }) => {
      await openManual(page);
      const input = page.getByLabel('Search this manual');
      const status = page.getByTestId('find-status');
      // Wide enough to read what was typed (a phone once squeezed it to a sliver beside "Go to page").
      expect((await input.boundingBox())!.width, 'search box width').toBeGreaterThanOrEqual(Math.min(200, vp.width * 0.5));
      expect((await page.getByLabel('Go to page').boundingBox())!.width, 'page number box width').toBeGreaterThanOrEqual(60);

      // A value on a known page: the first match opens page 3 with the value boxed.
      await input.fill('350 bar');
      await input.press('Enter');
      await expect(status).toHaveText(/^1 of \d+$/);
      await expect(status).toHaveAttribute('aria-live', 'polite');
      const results = page.getByTestId('find-result');
      await expect(results.first()).toHaveAttribute('data-page', '3');
      await expect(results.first().locator('mark')).toHaveText('350 bar');
      await expect(page.getByTestId('page-indicator')).toHaveText('Page 3 / 10');
      await expect(page.getByTestId('zoom-level')).toHaveText('Fit width');
      const value = page.getByTestId('highlight-value');
      await expect(value).toHaveCount(1);
      await expect(value).toHaveAttribute('data-value', /350\s*bar/i);
      await expect.poll(() => inView(page, value), { message: 'the match scrolled into view' }).toBe(true);
      // …without carrying the search box off screen (the page scrolls in its own box first).
      await expect
        .poll(async () => (await inView(page, input)) && (await inView(page, value)), { message: 'the search box and the match both on screen' })
        .toBe(true);
      const scroller = (await page.getByTestId('page-scroller').boundingBox())!;
      const frame = (await page.getByTestId('page-frame').boundingBox())!;
      expect(frame.width, 'fit-width: the page fills the width').toBeGreaterThan(scroller.width - 40);
      expect(frame.width).toBeLessThanOrEqual(scroller.width);
      await expectNoSidewaysPanning(page, page);

      // A value on several pages: next/previous buttons, Enter and Shift+Enter walk the matches.
      await input.fill('24 V');
      await input.press('Enter');
      await expect(status).toHaveText(/^1 of \d+$/);
      const total = Number((await status.textContent())!.match(/of (\d+)/)![1]);
      expect(total, 'matches of 24 V').toBeGreaterThanOrEqual(4);
      await expect(results).toHaveCount(total);
      const pageOf = async (i: number) => Number(await results.nth(i).getAttribute('data-page'));
      const expectAt = async (i: number) => {
        await expect(status).toHaveText(`${i + 1} of ${total}`);
        await expect(results.nth(i)).toHaveAttribute('aria-current', 'true');
        await expect(page.getByTestId('page-indicator')).toHaveText(`Page ${await pageOf(i)} / 10`);
      };
      await expectAt(0);
      await page.getByRole('button', { name: 'Next match' }).click();
      await expectAt(1);
      await page.getByRole('button', { name: 'Previous match' }).click();
      await expectAt(0);
      await input.press('Shift+Enter');
      await expectAt(total - 1);
      await input.press('Enter');
      await expectAt(0);
      await input.press('Enter');
      await expectAt(1);
      // Selecting a match in the list shows its page with the match highlighted.
      await results.nth(total - 1).click();
      await expectAt(total - 1);
      await expect.poll(() => inView(page, page.getByTestId('highlight-value').or(page.getByTestId('highlight')).first())).toBe(true);
      await expect.poll(() => inView(page, input), { message: 'the search box still on screen' }).toBe(true);

      // Nothing found says so.
      await input.fill('no such words here');
      await input.press('Enter');
      await expect(status).toHaveText('No matches for “no such words here”');
    });

    test('go to page jumps to a page; a number out of range gets a clear message', async ({ page }) => {
      await openManual(page);
      const target = page.getByLabel('Go to page');
      await target.fill('7');
      await target.press('Enter');
      await expect(page.getByTestId('page-indicator')).toHaveText('Page 7 / 10');
      await expect(page.getByTestId('zoom-level')).toHaveText('Fit width');
      for (const wrong of ['11', '0']) {
        await target.fill(wrong);
        await page.getByTestId('goto-submit').click();
        await expect(page.getByTestId('goto-error')).toHaveText('Enter a page number from 1 to 10.');
        await expect(target).toHaveAttribute('aria-invalid', 'true');
        await expect(page.getByTestId('page-indicator')).toHaveText('Page 7 / 10');
      }
      await target.fill('2');
      await target.press('Enter');
      await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 / 10');
      await expect(page.getByTestId('goto-error')).toHaveCount(0);
      await expectNoSidewaysPanning(page, page);
    });

    test('the thumbnail grid is one Tab stop; arrows, Home and End move focus; Enter opens the page; axe finds nothing serious', async ({ page }) => {
      await openManual(page);
      const thumbs = page.getByTestId('page-thumb');
      await expect(thumbs).toHaveCount(10);
      const focusedThumb = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="page-thumb"]')].indexOf(document.activeElement as Element));

      // One Tab stop: into the grid from the control before it, and straight out again.
      await page.getByTestId('goto-submit').focus();
      await page.keyboard.press('Tab');
      expect(await focusedThumb()).toBe(0);
      await page.keyboard.press('Tab');
      expect(await focusedThumb(), 'the second Tab leaves the grid').toBe(-1);
      await page.keyboard.press('Shift+Tab');
      expect(await focusedThumb()).toBe(0);

      const columns = await thumbs.evaluateAll(
        (els) => els.filter((e) => Math.abs(e.getBoundingClientRect().top - els[0].getBoundingClientRect().top) < 2).length,
      );
      expect(columns).toBe(vp.phone ? 2 : 6);
      await page.keyboard.press('ArrowRight');
      expect(await focusedThumb()).toBe(1);
      await page.keyboard.press('ArrowDown');
      expect(await focusedThumb()).toBe(1 + columns);
      await page.keyboard.press('ArrowUp');
      expect(await focusedThumb()).toBe(1);
      await page.keyboard.press('ArrowLeft');
      expect(await focusedThumb()).toBe(0);
      await page.keyboard.press('End');
      expect(await focusedThumb()).toBe(9);
      await page.keyboard.press('Home');
      expect(await focusedThumb()).toBe(0);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      // The focused thumbnail is the grid's one Tab stop.
      expect(await thumbs.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')))).toEqual([
        '-1',
        '-1',
        '0',
        '-1',
        '-1',
        '-1',
        '-1',
        '-1',
        '-1',
        '-1',
      ]);

      // The new controls in their states (results listed, an error shown) keep axe clean.
      await page.getByLabel('Search this manual').fill('bar');
      await page.getByLabel('Search this manual').press('Enter');
      await expect(page.getByTestId('find-status')).toHaveText(/^1 of \d+$/);
      await page.getByTestId('all-pages').click();
      await expect(page.getByTestId('thumbnail-grid')).toBeVisible();
      await page.getByLabel('Go to page').fill('99');
      await page.getByTestId('goto-submit').click();
      await expect(page.getByTestId('goto-error')).toBeVisible();
      expect(await seriousAxe(page, 'manual with matches and an error')).toEqual([]);

      await thumbs.nth(2).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('page-indicator')).toHaveText('Page 3 / 10');
      expect(await seriousAxe(page, 'page viewer with matches')).toEqual([]);
    });

    test('a citation preview and the viewer it opens start at fit-width with the highlight in view', async ({ page }) => {
      test.setTimeout(120_000);
      const chat = new ChatPage(page);
      await chat.askInNewChat('What supply voltage does the HX-200 controller need?');
      await chat.citations().first().click();
      const preview = chat.preview();
      await expect(preview.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
      await expect(preview.getByTestId('zoom-level')).toHaveText('Fit width');
      const highlight = chat.highlights().first();
      await expect.poll(() => inView(page, highlight), { message: 'the highlight in view' }).toBe(true);
      const frame = (await preview.getByTestId('page-frame').boundingBox())!;
      expect(frame.width).toBeLessThanOrEqual((await preview.getByTestId('page-scroller').boundingBox())!.width);
      await expectNoSidewaysPanning(page, preview);
      // Zoom on demand: zoomed in, the page is wider than its box and pans (what the check above measures).
      await preview.getByTestId('zoom-in').click();
      await preview.getByTestId('zoom-in').click();
      await expect.poll(() => preview.getByTestId('page-scroller').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

      await preview.getByTestId('open-in-viewer').click();
      await expect(page).toHaveURL(/\/manuals\/[\w-]+\?page=\d+&hl=/);
      await expect(page.getByTestId('zoom-level')).toHaveText('Fit width');
      await expect(page.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
      await expect.poll(() => inView(page, page.getByTestId('highlight').first()), { message: 'the viewer scrolled to the highlight' }).toBe(true);
      await expectNoSidewaysPanning(page, page);
    });
  });
}
