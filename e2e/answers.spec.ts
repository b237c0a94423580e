/** Issue 15 in the browser: quoted values boxed on their page, follow-ups, the fixed decline sentence. */
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

// lib/sample/facts.ts: the supply voltage (24 V DC) is a row of the specification table on page 3.
const SPEC_QUESTION = 'What supply voltage does the HX-200 controller need?';

test.describe('answers', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    const page = await browser.newPage();
    await new ChatPage(page).ensureSampleManualReady();
    await page.close();
  });

  test('a cited value opens its page with the quoted line boxed, not the whole passage', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.goto('/');
    await chat.ask(SPEC_QUESTION);
    await chat.expectLastTurn('done');
    await expect(chat.answer()).toContainText('24 V DC');
    await chat.citations().first().click();
    await expect(chat.preview()).toBeVisible();
    await expect(chat.highlights().first()).toBeVisible();
    // The specification passage spans many lines; the answer quotes one row of it.
    const boxes = await chat.highlights().count();
    expect(boxes).toBeGreaterThanOrEqual(1);
    expect(boxes).toBeLessThanOrEqual(2);
  });

  test('a follow-up is answered about the device and topic of the previous question', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.goto('/');
    await chat.ask(SPEC_QUESTION);
    await chat.expectLastTurn('done');
    await chat.ask('And the maximum current draw?');
    await chat.expectLastTurn('done');
    await expect(chat.lastTurn()).toContainText('Read as a follow-up: And the maximum current draw? (hx-200');
    await expect(chat.answer()).not.toHaveText(/^The manuals do not say/);
  });

  test('a question the manual does not answer gets the fixed decline sentence', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.goto('/');
    await chat.ask('What is the MTBF of the HX-200 controller?');
    await chat.expectLastTurn('done');
    await expect(chat.answer()).toHaveText(/^The manuals do not say: I found no passage giving the MTBF in .+\.$/);
  });
});
