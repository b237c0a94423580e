import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';

/**
 * The README's screenshots, written to docs/screenshots/. Not part of `npm test` (skipped unless
 * SCREENSHOTS=1). Run it alone so the server is fresh (the config starts one on a scratch
 * DATA_DIR): the library then holds only the sample manual.
 *
 *   SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts
 */
const OUT = path.join(import.meta.dirname, '..', 'docs', 'screenshots');
const MAX_BYTES = 300 * 1024;
// A spec question from the sample's ground truth (lib/sample/facts.ts, s14: page 7's torque table).
const QUESTION = 'What torque do I tighten the X1 terminal screws to, and what torque for the enclosure cover screws?';

test.skip(!process.env.SCREENSHOTS, 'writes docs/screenshots/*.png; run with SCREENSHOTS=1');
test.use({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });

/** Saves a 1280×800 PNG: lossless at best compression, or palette-quantised if that is still too big. */
async function save(page: Page, name: string, size: [number, number] = [1280, 800]) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const raw = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  let png = await sharp(raw).png({ compressionLevel: 9, effort: 10 }).toBuffer();
  if (png.length > MAX_BYTES) png = await sharp(raw).png({ compressionLevel: 9, effort: 10, palette: true, quality: 90, dither: 0.5 }).toBuffer();
  const meta = await sharp(png).metadata();
  expect([meta.width, meta.height], name).toEqual(size);
  expect(png.length, `${name} size`).toBeLessThan(MAX_BYTES);
  fs.writeFileSync(path.join(OUT, name), png);
}

/** The conversation from its start: the question, the steps, the answer. */
async function scrollChatToTop(page: Page) {
  await page.getByTestId('chat-scroller').evaluate((el) => el.scrollTo({ top: 0, behavior: 'instant' }));
}

/** The image has loaded (the preview and the viewer load the page image lazily). */
async function imagesLoaded(page: Page) {
  await expect
    .poll(() => page.evaluate(() => Array.from(document.images).every((img) => !img.getBoundingClientRect().width || (img.complete && img.naturalWidth > 0))))
    .toBe(true);
}

/** The element has stopped moving: the preview scrolls the highlight into view smoothly. */
async function settled(element: Locator) {
  let last = '';
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await element.boundingBox());
        const still = box === last;
        last = box;
        return still;
      },
      { intervals: [150] },
    )
    .toBe(true);
}

/** Opens the answer's first citation, waits for its page and highlight, saves it and closes it again. */
async function savePreview(chat: ChatPage, name: string) {
  await chat.citations().first().click();
  await expect(chat.highlights().first()).toBeVisible();
  await imagesLoaded(chat.page);
  await settled(chat.highlights().first());
  await save(chat.page, name);
  await chat.page.keyboard.press('Escape');
}

test('README screenshots: library, chat and page preview, light and dark', async ({ page }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  const chat = new ChatPage(page);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await chat.ensureSampleManualReady();
  const rows = await page.getByTestId('manual-row').count();
  expect(rows, 'a fresh server: run this spec alone (SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts)').toBe(1);

  // Reloaded: without the upload's progress line.
  await page.reload();
  await expect(page.getByTestId('manual-row')).toHaveCount(1);
  await save(page, 'library-light.png');

  await chat.askInNewChat(QUESTION);
  const id = await chat.chatId();
  // The trail opened once: its plain steps under the answer.
  await chat.lastTurn().getByTestId('trail-toggle').click();
  await scrollChatToTop(page);
  await imagesLoaded(page);
  await save(page, 'chat-light.png');

  await savePreview(chat, 'preview-light.png');

  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await chat.goto(`/chat/${id}`);
  await expect(chat.lastTurn()).toHaveAttribute('data-status', 'done');
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  await scrollChatToTop(page);
  await imagesLoaded(page);
  await save(page, 'chat-dark.png');

  await savePreview(chat, 'preview-dark.png');

  // The same citation on a phone: the page at its full width, scrolled to the highlight.
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 390, height: 844 });
  await chat.goto(`/chat/${id}`);
  await chat.citations().first().click();
  await expect(chat.highlights().first()).toBeVisible();
  await imagesLoaded(page);
  await settled(chat.highlights().first());
  await save(page, 'preview-phone.png', [390, 844]);
});
