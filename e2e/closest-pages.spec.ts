/**
 * The `pages` form in the browser, as cards: a question the sample manual does not
 * answer gets a plain notice and the closest pages as cards; a card opens the page preview of its
 * page (mouse and keyboard), a reload restores the same view, and on a phone the cards stack
 * without horizontal scrolling.
 */
import { expect, test } from './fixtures';
import { ChatPage, UNANSWERED_QUESTION } from './pages/chat-page';

test.describe('closest pages', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('a question the manual does not answer shows a notice and up to 3 page cards that open the page preview', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(UNANSWERED_QUESTION);
    const turn = chat.lastTurn();

    // The sentence is a notice, not an answer paragraph.
    const notice = turn.getByTestId('form-notice');
    await expect(notice).toHaveAttribute('data-mode', 'pages');
    await expect(notice).toContainText(/MTBF/);
    await expect(turn.getByTestId('citation')).toHaveCount(0);

    const cards = turn.getByTestId('page-card');
    await expect(cards.first()).toBeVisible();
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(3);
    for (let i = 0; i < count; i++) {
      const card = cards.nth(i);
      await expect(card.getByTestId('page-card-title')).not.toBeEmpty();
      await expect(card.getByTestId('page-card-page')).toHaveText(`Page ${await card.getAttribute('data-page')}`);
      await expect(card.getByTestId('page-card-snippet')).not.toBeEmpty();
    }
    // Cards name their section, and the snippets mark the question's words.
    await expect(cards.getByTestId('page-card-heading').first()).not.toBeEmpty();
    await expect(cards.getByTestId('page-card-snippet').locator('mark').first()).toBeVisible();
    // The card shows the part of its page that covers the question, cropped from the page's own image.
    const crop = cards.first().getByTestId('page-card-region').getByTestId('region-crop');
    const url = await crop.evaluate((el) => getComputedStyle(el).backgroundImage.replace(/^url\("?|"?\)$/g, ''));
    expect(new URL(url).pathname).toMatch(/^\/manuals\/[^/]+\/pages\/\d+\/image$/);
    const image = await page.request.get(url);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toMatch(/^image\//);

    // A click opens the preview of that card's page.
    const firstPage = (await cards.first().getAttribute('data-page'))!;
    await cards.first().click();
    await expect(chat.preview()).toBeVisible();
    await expect(chat.preview()).toHaveAttribute('aria-label', new RegExp(`page ${firstPage}$`));
    await expect(chat.preview().getByText(`Page ${firstPage}`, { exact: false }).first()).toBeVisible();
    await expect(chat.preview().getByTestId('open-in-viewer')).toHaveAttribute('href', new RegExp(`\\?page=${firstPage}(&|$)`));
    await expect(chat.preview().getByTestId('page-image')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();
    await expect(cards.first()).toBeFocused();

    // By keyboard: Enter opens the focused card, Esc closes back to it, Tab steps to the next card.
    await cards.first().focus();
    await page.keyboard.press('Enter');
    await expect(chat.preview()).toHaveAttribute('aria-label', new RegExp(`page ${firstPage}$`));
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();
    await expect(cards.first()).toBeFocused();
    if (count > 1) {
      await page.keyboard.press('Tab');
      await expect(cards.nth(1)).toBeFocused();
      const secondPage = (await cards.nth(1).getAttribute('data-page'))!;
      await page.keyboard.press('Space');
      await expect(chat.preview()).toHaveAttribute('aria-label', new RegExp(`page ${secondPage}$`));
      await page.keyboard.press('Escape');
      await expect(cards.nth(1)).toBeFocused();
    }

    // A reload restores the same form from the stored turn.
    const pagesShown = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-page')));
    await page.reload();
    await expect(chat.lastTurn().getByTestId('form-notice')).toHaveAttribute('data-mode', 'pages');
    await expect(chat.lastTurn().getByTestId('page-card')).toHaveCount(count);
    expect(
      await chat
        .lastTurn()
        .getByTestId('page-card')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-page'))),
    ).toEqual(pagesShown);

    // On a phone: the cards stack full width and nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    const stacked = chat.lastTurn().getByTestId('page-card');
    await expect(stacked.first()).toBeVisible();
    const boxes = await stacked.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, right: r.right })));
    for (const [i, b] of boxes.entries()) {
      expect(b.right).toBeLessThanOrEqual(375);
      expect(b.w).toBeGreaterThan(375 * 0.75);
      if (i > 0) {
        expect(b.x).toBeCloseTo(boxes[0].x, 0);
        expect(b.y).toBeGreaterThan(boxes[i - 1].y);
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await stacked.first().click();
    await expect(chat.preview()).toHaveAttribute('aria-label', new RegExp(`page ${pagesShown[0]}$`));
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();
  });
});
