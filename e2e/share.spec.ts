import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

test.describe('sharing', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('share → read-only snapshot for anyone with the link → continue in a new chat → revoke (404) → re-share', async ({ page, browser }) => {
    const owner = new ChatPage(page);
    await owner.askInNewChat('What signal does the HX-200 expect from the pressure transducer?');
    const chatId = await owner.chatId();
    const ownerAnswer = await owner.answer().innerText();

    await owner.shareButton().click();
    // Nothing is public until the owner confirms.
    await expect(page.getByTestId('share-confirm')).toBeVisible();
    await expect(owner.shareLink()).toHaveCount(0);
    await page.getByTestId('create-share-link').click();
    await expect(owner.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
    const url = await owner.shareLink().inputValue();
    // The snapshot is taken now: a later question is not in it.
    await page.keyboard.press('Escape');
    await owner.ask('What is the highest system pressure it can control?');
    await owner.expectLastTurn('done');

    // Someone else opens the link: the snapshot, read-only, rendered with the same components.
    const viewerContext = await browser.newContext();
    const viewerPage = await viewerContext.newPage();
    const viewer = new ChatPage(viewerPage);
    const res = await viewerPage.goto(url);
    expect(res?.status()).toBe(200);
    await expect(viewerPage.getByTestId('shared-chat')).toBeVisible();
    await expect(viewerPage.getByTestId('read-only-note')).toContainText('read-only');
    await expect(viewer.turns()).toHaveCount(1);
    await expect(viewer.answer()).toHaveText(ownerAnswer);
    await expect(viewer.trailEvents(viewer.lastTurn()).first()).toBeAttached();
    await expect(viewer.lastTurn().getByTestId('trail-summary')).toContainText('Searched');
    // No way to change anything: no composer, feedback, retry, share or sidebar.
    for (const id of ['chat-input', 'send-button', 'feedback-up', 'feedback-down', 'retry-button', 'share-button', 'session-item', 'follow-up']) {
      await expect(viewerPage.getByTestId(id)).toHaveCount(0);
    }
    // Citations still open the page preview.
    await viewer.citations().first().click();
    await expect(viewer.highlights().first()).toBeVisible();
    await viewerPage.keyboard.press('Escape');
    // The owner's private chat stays private.
    expect((await viewerPage.goto(`/chat/${chatId}`))?.status()).toBe(404);

    // Continue in a new chat: a copy owned by the viewer.
    await viewerPage.goto(url);
    await viewerPage.getByTestId('fork-button').click();
    await expect(viewerPage).toHaveURL(/\/chat\/[\w-]+$/);
    const forkId = await viewer.chatId();
    expect(forkId).not.toBe(chatId);
    await expect(viewer.turns()).toHaveCount(1);
    await expect(viewer.answer()).toHaveText(ownerAnswer);
    await expect(viewer.input()).toBeEnabled();
    await expect(viewer.sessionItems()).toHaveCount(1);
    // …which the owner cannot open.
    expect((await page.request.get(`/chat/${forkId}`)).status()).toBe(404);

    // The owner revokes: the link is gone for everyone.
    await owner.shareButton().click();
    await expect(owner.shareLink()).toHaveValue(url);
    await owner.revokeShare().click();
    await expect(page.getByTestId('share-revoked')).toBeVisible();
    expect((await viewerPage.goto(url))?.status()).toBe(404);
    await expect(viewerPage.getByText('Not found')).toBeVisible();

    // Sharing again makes a new link; the revoked one stays dead.
    await page.getByRole('button', { name: 'Create a new link' }).click();
    await expect(owner.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
    const second = await owner.shareLink().inputValue();
    expect(second).not.toBe(url);
    expect((await viewerPage.goto(second))?.status()).toBe(200);
    await expect(viewer.turns()).toHaveCount(2);
    expect((await viewerPage.goto(url))?.status()).toBe(404);
    await viewerContext.close();
  });
});
