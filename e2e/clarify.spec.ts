import { expect, test } from './fixtures';
import { generateFamily, type FamilyVariant } from '../lib/sample/family';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { tempPdf } from './sample-pdf';

/**
 * "Which device?": in a library holding a product line's near-identical manuals
 * (lib/sample/family.ts), a question naming no device gets the candidate devices as buttons, each
 * with its best page, and the closest pages grouped by device. Picking one — by keyboard on a
 * desktop, by tap on a phone — sets the chat's device and answers from that manual. The spec's
 * manuals are deleted afterwards, so later specs see the library as before.
 */
const QUESTION = 'What is the output relay rating?';
const VARIANTS = 4;
let variants: FamilyVariant[] = [];
const files: string[] = [];

test.describe('clarify: which device?', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    const family = await generateFamily(6);
    variants = family.slice(0, VARIANTS).map((f) => f.variant);
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    const pdfs = family.slice(0, VARIANTS).map((f) => tempPdf(f.pdf, f.variant.fileName.replace(/\.pdf$/, '')));
    await manuals.upload(...pdfs.map((p) => p.path));
    for (const p of pdfs) {
      files.push(p.fileName);
      await manuals.expectReady(manuals.row(p.fileName.replace(/\.pdf$/, '')));
    }
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    const manuals = new ManualsPage(page);
    await manuals.goto();
    for (const f of files) await manuals.delete(manuals.row(f.replace(/\.pdf$/, '')));
    await page.close();
  });

  const expectClarify = async (chat: ChatPage) => {
    const turn = chat.lastTurn();
    await expect(turn.getByTestId('form-notice')).toHaveAttribute('data-mode', 'clarify');
    await expect(turn.getByTestId('form-notice')).toContainText('Which device?');
    const choices = turn.getByTestId('device-choice');
    expect(await choices.count()).toBeGreaterThanOrEqual(2);
    await expect(turn.getByTestId('device-pages').first().getByTestId('page-card').first()).toBeVisible();
    return choices;
  };

  test('picking a device by keyboard answers from its manual and sets the chat device', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(QUESTION);
    const choices = await expectClarify(chat);
    const name = (await choices.nth(1).getByTestId('device-choice-name').textContent())!;
    const v = variants.find((x) => name.includes(x.model))!;
    expect(v).toBeTruthy();
    // Tab from the first choice to the second, Enter picks it.
    await choices.first().focus();
    await page.keyboard.press('Tab');
    await expect(choices.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(chat.turns()).toHaveCount(2);
    await chat.expectLastTurn('done');
    await expect(chat.answer()).toContainText(v.relayRating);
    await expect(chat.answer()).toContainText(v.model);
    await expect(page.getByTestId('device-chip')).toContainText(v.model);
    // The earlier reply's choices are no longer offered.
    await expect(chat.turns().first().getByTestId('device-choice').first()).toBeDisabled();
  });

  test('on a phone, a tap on a device answers from its manual', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    try {
      const chat = new ChatPage(page);
      await chat.askInNewChat(QUESTION);
      const choices = await expectClarify(chat);
      const first = choices.first();
      await first.scrollIntoViewIfNeeded();
      await expect(first).toBeInViewport();
      // A phone-sized target: the full width of the chat, at least 44 px tall.
      const box = (await first.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThan(300);
      const name = (await first.getByTestId('device-choice-name').textContent())!;
      const v = variants.find((x) => name.includes(x.model))!;
      await first.tap();
      await expect(chat.turns()).toHaveCount(2);
      await chat.expectLastTurn('done');
      await expect(chat.answer()).toContainText(v.relayRating);
    } finally {
      await context.close();
    }
  });
});
