import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

// Ground truth from lib/sample/facts.ts: the supply voltage is on page 3 of the sample manual.
const SPEC_QUESTION = 'What supply voltage does the HX-200 controller need?';

test.describe('chat', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('asks a spec question: live trail, streamed cited answer, page preview with the passage highlighted; reload restores it', async ({ page }) => {
    // A paced turn: an offline answer can finish between two checks of its running state.
    await ChatPage.slowTurns(page, 300);
    const chat = new ChatPage(page);
    await chat.goto('/');
    await expect(page.getByTestId('page-title')).toHaveText('Ask your manuals');
    await expect(page.getByTestId('example-question').first()).toBeVisible();

    await chat.recordTrail();
    await chat.ask(SPEC_QUESTION);
    await expect(chat.stopButton()).toBeVisible();
    await expect(chat.input()).toBeDisabled();
    await chat.expectLastTurn('done');

    const seen = await chat.trailRecord();
    expect(seen.maxWhileRunning, 'trail events shown before the answer finished').toBeGreaterThanOrEqual(2);
    expect(seen.firstEventMs, 'first trail row').not.toBeNull();

    // The URL becomes the session's; the sidebar lists it under the question as title.
    const id = await chat.chatId();
    await expect(chat.sessionItems().filter({ hasText: 'What supply voltage' })).toHaveCount(1);
    await expect(chat.stopButton()).toBeHidden();
    await expect(chat.input()).toBeEnabled();

    // A cited answer; the trail lists the decisions with their tools.
    const answer = chat.answer();
    await expect(answer).not.toBeEmpty();
    await expect(chat.citations().first()).toBeVisible();
    await expect(chat.trailEvents(chat.lastTurn()).filter({ hasText: 'Text and page search' })).toHaveCount(1);
    await expect(chat.lastTurn().getByTestId('source-item').first()).toBeVisible();

    // The citation opens the page with the cited passage highlighted, and links to the viewer.
    await chat.citations().first().click();
    await expect(chat.preview()).toBeVisible();
    await expect(chat.preview().getByTestId('page-image')).toBeVisible();
    expect(await chat.highlights().count()).toBeGreaterThan(0);
    await expect(chat.highlights().first()).toBeVisible();
    await expect(chat.preview().getByTestId('open-in-viewer')).toHaveAttribute('href', /\/manuals\/[^/]+\?page=\d+&hl=/);
    await page.keyboard.press('Escape');
    await expect(chat.preview()).toBeHidden();

    // Feedback is stored (survives the reload below).
    // The button shows the rating at once; the reload must wait for the server action that stores it.
    const stored = page.waitForResponse(
      (r) => r.request().method() === 'POST' && !!r.request().headers()['next-action'] && !!r.request().postData()?.includes('"rating":1'),
    );
    await chat.lastTurn().getByTestId('feedback-up').click();
    await expect(chat.lastTurn().getByTestId('feedback-up')).toHaveAttribute('aria-pressed', 'true');
    expect((await stored).ok()).toBe(true);

    const answerText = await answer.innerText();
    const trailCount = await chat.trailEvents(chat.lastTurn()).count();
    const citationCount = await chat.citations().count();
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
    await expect(chat.turns()).toHaveCount(1);
    await expect(chat.lastTurn()).toHaveAttribute('data-status', 'done');
    await expect(chat.lastTurn().getByTestId('question')).toHaveText(SPEC_QUESTION);
    await expect(chat.answer()).toHaveText(answerText);
    await expect(chat.trailEvents(chat.lastTurn())).toHaveCount(trailCount);
    await expect(chat.citations()).toHaveCount(citationCount);
    await expect(chat.lastTurn().getByTestId('feedback-up')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('chat-title')).toHaveText(SPEC_QUESTION);

    // A follow-up suggestion asks in the same session.
    const followUp = page.getByTestId('follow-up').first();
    await expect(followUp).toBeVisible();
    const followUpText = (await followUp.innerText()).trim();
    await followUp.click();
    await expect(chat.turns()).toHaveCount(2);
    await chat.expectLastTurn('done');
    await expect(chat.lastTurn().getByTestId('question')).toHaveText(followUpText);
    await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
  });

  test('Stop (button or Esc) cancels a running turn; the stopped turn is kept', async ({ page }) => {
    await ChatPage.slowTurns(page, 800);
    const chat = new ChatPage(page);
    await chat.goto('/');
    await chat.ask('What IP rating does the HX-200 enclosure have?');
    await expect(chat.stopButton()).toBeVisible();
    await expect(chat.trailEvents(chat.lastTurn()).first()).toBeAttached();
    await chat.stopButton().click();
    await chat.expectLastTurn('cancelled', 10_000);
    await expect(chat.stopButton()).toBeHidden();
    await expect(chat.lastTurn().getByTestId('trail')).toContainText('stopped');
    const id = await chat.chatId();

    // Esc stops too.
    await chat.ask('How much does the HX-200 weigh?');
    await expect(chat.trailEvents(chat.lastTurn()).first()).toBeAttached();
    await page.keyboard.press('Escape');
    await chat.expectLastTurn('cancelled', 10_000);

    // The server stored both turns as cancelled, with the trail they had.
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
    await expect(chat.turns()).toHaveCount(2);
    for (const turn of await chat.turns().all()) {
      await expect(turn).toHaveAttribute('data-status', 'cancelled');
      await expect(chat.trailEvents(turn).first()).toBeAttached();
    }

    // Retry re-asks the last question and replaces it.
    await chat.lastTurn().getByTestId('retry-button').click();
    await chat.expectLastTurn('done');
    await expect(chat.turns()).toHaveCount(2);
    await expect(chat.lastTurn().getByTestId('question')).toHaveText('How much does the HX-200 weigh?');

    // Stop right after sending (possibly before the server said which message it is).
    await chat.input().fill('What IP rating does the enclosure have?');
    await chat.sendButton().click();
    await chat.stopButton().click();
    await chat.expectLastTurn('cancelled', 10_000);
    await expect(chat.input()).toBeEnabled();
  });

  test('sessions: listed in the sidebar, renamed, deleted; private to their owner (404 for others)', async ({ page, browser }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat('What does error E05 mean on the HX-200?');
    const id = await chat.chatId();

    // Another owner (no cookie of ours) cannot see it or ask in it.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    const res = await otherPage.goto(`/chat/${id}`);
    expect(res?.status()).toBe(404);
    await expect(otherPage.getByText('Not found')).toBeVisible();
    await expect(otherPage.getByText('What does error E05 mean')).toHaveCount(0);
    const post = await otherPage.request.post('/api/chat', { data: { sessionId: id, question: 'mine?', scope: 'all' } });
    expect(post.status()).toBe(404);
    await otherPage.goto('/');
    await expect(new ChatPage(otherPage).sessionItems()).toHaveCount(0);
    await other.close();

    // Rename.
    const item = page.locator(`[data-testid="session-item"][data-session-id="${id}"]`);
    await item.hover();
    await item.getByTestId('session-rename').click();
    await item.getByTestId('session-title-input').fill('E05 overpressure');
    await item.getByTestId('session-title-input').press('Enter');
    await expect(item).toContainText('E05 overpressure');
    await page.reload();
    await expect(item).toContainText('E05 overpressure');
    await expect(page.getByTestId('chat-title')).toHaveText('E05 overpressure');

    // Delete: gone from the list, and the chat is 404.
    await item.hover();
    await item.getByTestId('session-delete').click();
    await page.getByTestId('confirm-button').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator(`[data-testid="session-item"][data-session-id="${id}"]`)).toHaveCount(0);
    expect((await page.goto(`/chat/${id}`))?.status()).toBe(404);
  });
});
