import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { uniqueSamplePdf } from './sample-pdf';

const WIDTH = 375;

/** The element is on screen and entirely within the viewport's width. */
async function expectWithinWidth(locator: Locator, what: string) {
  await expect(locator, what).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(WIDTH + 0.5);
}

/**
 * The page does not scroll sideways, nothing is cut off sideways by a clipping box (a truncated
 * line with an ellipsis is fine; a scroll box such as a wide table's is fine), and the header's
 * controls are all on screen.
 */
async function expectFits(page: Page, what: string) {
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
  expect(widths.doc, `${what}: document scrollWidth`).toBeLessThanOrEqual(WIDTH);
  expect(widths.body, `${what}: body scrollWidth`).toBeLessThanOrEqual(WIDTH);
  const clipped = await page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const s = getComputedStyle(el);
      if (s.overflowX !== 'hidden' && s.overflowX !== 'clip') continue;
      // Truncated text, visually hidden (sr-only), not rendered: not content cut off by mistake.
      if (s.textOverflow === 'ellipsis' || s.clipPath === 'inset(50%)' || el.clientWidth <= 1 || el.getClientRects().length === 0) continue;
      if (el.closest('dialog:not([open])')) continue;
      if (el.scrollWidth > el.clientWidth + 1) found.push(`<${el.tagName.toLowerCase()} class="${el.className}"> ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return found;
  });
  expect(clipped, `${what}: content cut off sideways`).toEqual([]);
  // A shared chat has its own shell (no app navigation): its name and the theme toggle.
  const header = what.startsWith('/share') ? ['share-shell', 'theme-toggle'] : ['home-link', 'nav-chat', 'nav-manuals', 'theme-toggle'];
  for (const id of header) await expectWithinWidth(page.getByTestId(id), `${what}: header ${id}`);
}

test.describe('375 px wide', () => {
  test.use({ viewport: { width: WIDTH, height: 812 } });

  test('library, manual, page viewer, chat (with drawer and preview) and shared chat fit without sideways scrolling', async ({ page, browser }) => {
    test.setTimeout(240_000);
    const manuals = new ManualsPage(page);
    const chat = new ChatPage(page);
    const sample = await uniqueSamplePdf('responsive');

    // /manuals: the table keeps title, status and the delete action on screen.
    await manuals.goto();
    await expectFits(page, '/manuals (empty or not)');
    await manuals.upload(sample.path);
    const row = manuals.row(sample.fileName);
    await manuals.expectReady(row);
    await expectFits(page, '/manuals');
    await expectWithinWidth(row.getByTestId('manual-status'), 'status');
    await expectWithinWidth(row.getByTestId('delete-manual'), 'delete');
    await expect(row.getByTestId('manual-meta')).toContainText('10 pages');

    // /manuals/[id]: the thumbnails.
    await row.getByTestId('manual-link').click();
    await expect(page.getByTestId('page-thumb')).toHaveCount(10);
    await expectFits(page, '/manuals/[id]');

    // /manuals/[id]?page=N: the toolbar wraps instead of pushing the zoom buttons off screen.
    await page.getByTestId('page-thumb').nth(2).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 3 / 10');
    await expectFits(page, '/manuals/[id]?page=3');
    for (const name of ['Previous page', 'Next page', 'Zoom out', 'Zoom in']) await expectWithinWidth(page.getByRole('button', { name }), name);
    await expectWithinWidth(page.getByTestId('page-image'), 'page image');

    // New chat: the composer is on screen; the chat list is a drawer behind a button.
    await page.goto('/');
    await expectFits(page, '/');
    await expectWithinWidth(page.getByTestId('composer'), 'composer');
    await expect(page.getByTestId('session-sidebar')).toBeHidden();

    // A chat session.
    await chat.ask('What supply voltage does the HX-200 controller need?');
    await chat.expectLastTurn('done');
    await chat.chatId();
    await expectFits(page, '/chat/[id]');
    await expectWithinWidth(page.getByTestId('composer'), 'composer');
    await expectWithinWidth(chat.sendButton(), 'send button');
    await expectWithinWidth(chat.shareButton(), 'share button');
    await expectWithinWidth(chat.answer(), 'answer');

    const drawer = page.getByTestId('sidebar-drawer');
    await page.getByTestId('open-sidebar').click();
    await expect(drawer).toBeVisible();
    await expectWithinWidth(drawer, 'chats drawer');
    await expect(drawer.getByTestId('session-item').first()).toBeVisible();
    await drawer.getByTestId('close-sidebar').click();
    await expect(drawer).toBeHidden();

    // The page preview fits the screen with its controls.
    await chat.citations().first().click();
    await expect(chat.highlights().first()).toBeVisible();
    await expectWithinWidth(chat.preview(), 'page preview');
    await expectWithinWidth(chat.preview().getByTestId('open-in-viewer'), 'open in viewer');
    await expectWithinWidth(chat.preview().getByRole('button', { name: 'Close' }), 'close preview');
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();

    // /share/[id], opened by someone else.
    await chat.shareButton().click();
    await page.getByTestId('create-share-link').click();
    await expect(chat.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
    await expectWithinWidth(page.getByTestId('share-dialog'), 'share dialog');
    await expectWithinWidth(page.getByTestId('copy-share-link'), 'copy link');
    const url = await chat.shareLink().inputValue();
    await page.keyboard.press('Escape');
    const viewer = await browser.newContext({ viewport: { width: WIDTH, height: 812 } });
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(url);
    await expect(viewerPage.getByTestId('shared-chat')).toBeVisible();
    await expectFits(viewerPage, '/share/[id]');
    await expectWithinWidth(viewerPage.getByTestId('fork-button'), 'continue in a new chat');
    await expectWithinWidth(viewerPage.getByTestId('answer'), 'shared answer');
    await viewer.close();
  });
});
