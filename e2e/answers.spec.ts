/** Answers in the browser: quoted values boxed on their page, follow-ups, the fixed decline sentence. */
import fs from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { loadPdfjs, pdfjsAssets } from '../lib/ingest/pdfjs';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { samplePdfPath } from './sample-pdf';

/**
 * Where the sample manual draws `value` on `page`: the origin of the text run holding it as pdf.js
 * reads it, plus the widths of the run's characters before and of the value from Helvetica's own
 * metrics (pdf-lib), in top-left page points.
 */
async function drawnValue(page: number, value: string) {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(await samplePdfPath())), ...pdfjsAssets() }).promise;
  const p = await doc.getPage(page);
  const height = p.getViewport({ scale: 1 }).height;
  const item = (await p.getTextContent()).items.find((i) => (i as TextItem).str?.includes(value)) as TextItem;
  await doc.destroy();
  const [size, , , , x, baseline] = item.transform as number[];
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  const width = (text: string) => [...text].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0);
  const x0 = x + width(item.str.slice(0, item.str.indexOf(value)));
  return { x0, x1: x0 + width(value), baseline: height - baseline, size };
}

// lib/sample/facts.ts: the supply voltage (24 V DC) is a row of the specification table on page 3.
const SPEC_QUESTION = 'What supply voltage does the HX-200 controller need?';

test.describe('answers', () => {
  test.beforeAll(ChatPage.sampleManualReadyBeforeAll);

  test('a cited value opens its page with the value boxed on its glyphs, its line shown faintly', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(SPEC_QUESTION);
    await expect(chat.answer()).toContainText('24 V DC');
    await chat.citations().first().click();
    await expect(chat.preview()).toBeVisible();
    await expect(chat.highlights().first()).toBeVisible();
    // The specification passage spans many lines; the answer quotes one row of it.
    const boxes = await chat.highlights().count();
    expect(boxes).toBeGreaterThanOrEqual(1);
    expect(boxes).toBeLessThanOrEqual(2);
    // The value itself is boxed on its glyphs, read from the PDF's text layer.
    const value = chat.valueHighlights().and(chat.page.locator('[data-value="24 V DC"]'));
    await expect(value).toHaveCount(1);
    await expect(value).toHaveAttribute('data-exact', 'true');
    const [x, y, w, h] = (await value.getAttribute('data-box'))!.split(',').map(Number);
    const citedPage = Number(/page (\d+)/.exec((await chat.preview().getAttribute('aria-label')) ?? '')?.[1]);
    const drawn = await drawnValue(citedPage, '24 V DC');
    expect(Math.abs(x - drawn.x0)).toBeLessThan(0.5);
    expect(Math.abs(x + w - drawn.x1)).toBeLessThan(0.5);
    expect(y).toBeLessThan(drawn.baseline);
    expect(y + h).toBeGreaterThan(drawn.baseline);
    expect(h).toBeLessThan(drawn.size * 1.5);
  });

  test('a follow-up is answered about the device and topic of the previous question', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat(SPEC_QUESTION);
    await chat.ask('And the maximum current draw?');
    await chat.expectLastTurn('done');
    await expect(chat.lastTurn()).toContainText(`Read as a follow-up: And the maximum current draw? — continuing “${SPEC_QUESTION}”`);
    await expect(chat.answer()).not.toHaveText(/^The manuals do not say/);
  });

  test('a question the manual does not answer gets the closest pages, saying so in one sentence', async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.askInNewChat('What is the MTBF of the HX-200 controller?');
    await expect(chat.answer()).toContainText(/I could not find a stated value for the MTBF; these pages are the closest match\./);
  });
});
