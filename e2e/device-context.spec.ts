import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

/**
 * Device context: a question naming the sample manual's device (HX-200) puts a chip
 * above the input; a follow-up without the name searches that manual and the trail says why;
 * clearing the chip (from the keyboard, on a phone-sized screen) searches every manual again,
 * and the chat remembers it after a reload.
 */
test.describe('device context', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('the chip appears after a question naming the device, a follow-up searches its manual, and clearing it works', async ({ page }) => {
    const chat = new ChatPage(page);
    const chip = page.getByTestId('device-chip');
    // The trail's plain step that says which manuals were searched and why.
    const steps = (turn = chat.lastTurn()) => turn.locator('[data-testid="trail-step"][data-kind="scope"]');

    await chat.goto('/');
    await expect(chip).toHaveCount(0);
    await chat.ask('What supply voltage does the HX-200 controller need?');
    await chat.expectLastTurn('done');
    await expect(chip).toContainText('HX-200');

    // A follow-up that names no device searches the HX-200's manual, and the trail says why.
    await chat.ask('And which fuse does it take?');
    await chat.expectLastTurn('done');
    await chat.lastTurn().getByTestId('trail-toggle').click();
    await expect(steps()).toContainText('HX-200');
    await expect(steps()).toContainText('named in your first question');
    const sources = chat.lastTurn().getByTestId('source-label');
    await expect(sources.first()).toBeVisible();
    for (const source of await sources.all()) await expect(source).toHaveAttribute('title', /HX-200/);

    // On a phone-sized screen the chip is in view, and its clear button works from the keyboard.
    await page.setViewportSize({ width: 390, height: 844 });
    const clear = page.getByRole('button', { name: /Stop searching only HX-200/ });
    await expect(clear).toBeInViewport();
    await clear.focus();
    await page.keyboard.press('Enter');
    await expect(chip).toHaveCount(0);
    await expect(chat.input()).toBeFocused();

    // The next question without a device name searches every manual; a reload keeps the chip cleared.
    await chat.ask('Which fuse does it take?');
    await chat.expectLastTurn('done');
    await chat.lastTurn().getByTestId('trail-toggle').click();
    await expect(steps()).toContainText('Searched every manual');
    await expect(chip).toHaveCount(0);
    await page.reload();
    await expect(chat.turns()).toHaveCount(3);
    await expect(chip).toHaveCount(0);
  });
});
