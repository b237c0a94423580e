import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { expectFocusRing, expectFocusTrapped, markFocused, tabTo } from './pages/keyboard';
import { ManualsPage } from './pages/manuals-page';
import { uniqueSamplePdf } from './sample-pdf';

// Ground truth from lib/sample/facts.ts: the supply voltage is on page 3 of the sample manual.
const SPEC_QUESTION = 'What supply voltage does the HX-200 controller need?';
const SECOND_QUESTION = 'What does error E05 mean on the HX-200?';

/**
 * Everything below is driven with the keyboard only: Tab, Shift+Tab, Enter, Space, Escape and the
 * arrow keys. page.goto opens the first page (as typing an address would); the file chooser that
 * Space opens is answered with Playwright's file chooser, the one thing a keyboard cannot type.
 */
test.describe('keyboard only', () => {
  test('skip link, header, upload, ask, citation preview, share dialog, page viewer and the chat list', async ({ page }) => {
    test.setTimeout(240_000);
    const chat = new ChatPage(page);
    const manuals = new ManualsPage(page);
    const sample = await uniqueSamplePdf('keyboard');

    // The first Tab shows the skip link; Enter on it jumps past the header into the page.
    await page.goto('/manuals');
    await page.keyboard.press('Tab');
    const skip = page.getByTestId('skip-link');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect((await skip.boundingBox())!.width).toBeGreaterThan(60);
    await expectFocusRing(page);
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    // Past the page's description (its Settings link), the upload zone.
    await tabTo(page, manuals.uploadInput(), { max: 3 });
    await expectFocusRing(page);

    // Space on the upload zone opens the file chooser.
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles(sample.path);
    const row = manuals.row(sample.fileName);
    await manuals.expectReady(row);

    // Header → Chat: focus lands in the composer.
    await tabTo(page, page.getByTestId('nav-chat'), { shift: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.input()).toBeEnabled();
    await expect(chat.input()).toBeFocused();
    await expectFocusRing(page);

    // Type and send with Enter; focus comes back to the composer when the answer is done.
    await page.keyboard.type(SPEC_QUESTION);
    await page.keyboard.press('Enter');
    await chat.expectLastTurn('done');
    const firstChatId = await chat.chatId();
    await expect(chat.input()).toBeFocused();
    await expect(chat.citations().first()).toBeVisible();

    // The composer's manual picker: Enter opens it, Tab walks its choices, Esc closes it back onto its button.
    await page.keyboard.press('Tab');
    const scope = page.getByTestId('scope-picker');
    await expect(scope).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(scope).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('scope-all')).toBeFocused();
    await expectFocusRing(page);
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('scope-option').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('scope-panel')).toHaveCount(0);
    await expect(scope).toBeFocused();
    await tabTo(page, chat.input(), { shift: true, max: 3 });

    // Back (Shift+Tab) through the answer to a citation chip; Enter opens the page preview.
    await tabTo(page, '[data-testid="citation"]', { shift: true });
    const chip = await markFocused(page, 'chip');
    await page.keyboard.press('Enter');
    await expect(chat.preview()).toBeVisible();
    await expect(chat.highlights().first()).toBeVisible();
    // Focus moved into the dialog and stays there, both ways round.
    await expect.poll(() => chat.preview().evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectFocusTrapped(page, chat.preview(), { times: 5 });
    await expectFocusTrapped(page, chat.preview(), { times: 5, shift: true });
    // Escape closes it and gives focus back to the chip.
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();
    await expect(chip).toBeFocused();

    // Share dialog: the link is focused (selected, ready to copy); focus stays inside; Esc returns to Share.
    await tabTo(page, chat.shareButton(), { shift: true });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('share-dialog')).toBeVisible();
    // The link is made only on confirmation, which has the focus: Enter confirms.
    await expect(page.getByTestId('create-share-link')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(chat.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
    await expect(chat.shareLink()).toBeFocused();
    await expectFocusTrapped(page, page.getByTestId('share-dialog'), { times: 6 });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('share-dialog')).toBeHidden();
    await expect(chat.shareButton()).toBeFocused();

    // A chip again, this time on to the full page viewer, where ← and → turn the pages.
    await tabTo(page, '[data-testid="citation"]');
    await page.keyboard.press('Enter');
    await expect(chat.preview()).toBeVisible();
    await tabTo(page, chat.preview().getByTestId('open-in-viewer'), { max: 9 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/manuals\/[^/?]+\?page=\d+&hl=/);
    const indicator = page.getByTestId('page-indicator');
    const [, current, total] = (await indicator.innerText()).match(/Page (\d+) \/ (\d+)/)!.map(Number);
    const forward = current < total;
    await page.keyboard.press(forward ? 'ArrowRight' : 'ArrowLeft');
    await expect(indicator).toHaveText(`Page ${forward ? current + 1 : current - 1} / ${total}`);

    // Header → Chat → a second question in a new chat.
    await tabTo(page, page.getByTestId('nav-chat'), { max: 80 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.input()).toBeFocused();
    await page.keyboard.type(SECOND_QUESTION);
    await page.keyboard.press('Enter');
    await chat.expectLastTurn('done');
    const secondChatId = await chat.chatId();
    expect(secondChatId).not.toBe(firstChatId);

    // The chat list: reach the first chat's entry, open it with Enter.
    const firstItem = page.locator(`[data-testid="session-item"][data-session-id="${firstChatId}"]`);
    await tabTo(page, firstItem.getByTestId('session-link'), { shift: true, max: 80 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/chat/${firstChatId}$`));
    await expect(chat.lastTurn().getByTestId('question')).toHaveText(SPEC_QUESTION);

    // Rename it: Tab reveals the item's buttons; Enter edits, Enter saves, focus returns to the entry.
    await tabTo(page, firstItem.getByTestId('session-link'), { shift: true, max: 80 });
    await page.keyboard.press('Tab');
    await expect(firstItem.getByTestId('session-rename')).toBeFocused();
    await page.keyboard.press('Enter');
    const titleInput = firstItem.getByTestId('session-title-input');
    await expect(titleInput).toBeFocused();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Supply voltage (keyboard)');
    await page.keyboard.press('Enter');
    await expect(firstItem).toContainText('Supply voltage (keyboard)');
    await expect(page.getByTestId('chat-title')).toHaveText('Supply voltage (keyboard)');
    await expect(firstItem.getByTestId('session-link')).toBeFocused();

    // Delete asks first, in a modal: Esc cancels and focus is back on the delete button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(firstItem.getByTestId('session-delete')).toBeFocused();
    await page.keyboard.press('Enter');
    const confirm = page.getByTestId('confirm-dialog');
    await expect(confirm).toBeVisible();
    await expect.poll(() => confirm.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectFocusTrapped(page, confirm, { times: 3 });
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(firstItem.getByTestId('session-delete')).toBeFocused();
    await expect(firstItem).toHaveCount(1);
  });

  test('narrow screen: the chats drawer opens, keeps focus inside and closes with Esc or its close button', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    const open = page.getByTestId('open-sidebar');
    const drawer = page.getByTestId('sidebar-drawer');
    await expect(open).toBeVisible();
    await expect(page.getByTestId('session-sidebar')).toBeHidden();

    await tabTo(page, open, { shift: true });
    await page.keyboard.press('Enter');
    await expect(drawer).toBeVisible();
    await expect.poll(() => drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await expectFocusTrapped(page, drawer, { times: 4 });
    await expectFocusTrapped(page, drawer, { times: 4, shift: true });
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();

    // Space opens it too; the close button closes it.
    await page.keyboard.press('Space');
    await expect(drawer).toBeVisible();
    await tabTo(page, drawer.getByTestId('close-sidebar'), { max: 10 });
    await page.keyboard.press('Enter');
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
  });
});
