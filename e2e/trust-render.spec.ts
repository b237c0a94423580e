/**
 * A quoted answer in the browser reaches the reader as the manual writes it. A small
 * manual made here (the sample has no "~" range) gives a table row with ranges; the answer must
 * show them intact (no strikethrough), cite [1]..[n] with one chip per source, and label each
 * source by its section heading.
 */
import { linesPdf, type PdfLine } from '../lib/ingest/testing/lines-pdf';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { tempPdf } from './sample-pdf';

/** A two-page manual of an invented Acme pump whose limits table writes ranges with "~". */
async function rangeManual(): Promise<{ path: string; fileName: string }> {
  // A cover page first, as manuals have: the cover names the device, so its words are the
  // manual's identity, not the asked content. Each limit is a sentence of its own.
  const pages: PdfLine[][] = [
    [
      ['Acme HX-90 Coolant Pump', 22, true],
      ['Operating manual', 15, false],
      ['Edition 1', 10, false],
    ],
    [
      ['Operating limits', 15, true],
      ['Keep the coolant pump within these limits.', 10, false],
      ['The inlet pressure range is 2.5~3.65 bar.', 10, false],
      ['The coolant temperature range is 5~60 C.', 10, false],
      ['Outside these ranges the controller stops the pump and shows a warning.', 10, false],
    ],
    [
      ['Maintenance', 15, true],
      ['Clean the strainer of the coolant pump every month and replace its seal once a year.', 10, false],
      ['Use only seals from the Acme service kit.', 10, false],
    ],
    [
      ['Wiring', 15, true],
      ['Connect the motor cable to terminals U, V and W.', 10, false],
      ['Earth the frame before switching on.', 10, false],
    ],
  ];
  return tempPdf(await linesPdf('Acme HX-90 Coolant Pump Manual', pages), 'acme-hx90-ranges');
}

test('a quoted "~" range is shown intact, cited [1]..[n] under its section heading', async ({ page }) => {
  test.setTimeout(300_000);
  const manuals = new ManualsPage(page);
  const chat = new ChatPage(page);
  const pdf = await rangeManual();
  await manuals.goto();
  await manuals.upload(pdf.path);
  const row = manuals.row(pdf.fileName);
  await manuals.expectReady(row);

  // Ask this manual only (the library holds other manuals of other specs).
  await chat.goto('/');
  await page.waitForLoadState('networkidle');
  await page.getByTestId('scope-picker').click();
  const options = page
    .getByTestId('scope-panel')
    .locator('label')
    .filter({ has: page.getByTestId('scope-option') });
  // The scope list names the device in short (the title without its document words).
  const device = 'Acme HX-90 Coolant Pump';
  for (const other of await options.filter({ hasNotText: device }).all()) await other.getByTestId('scope-option').uncheck();
  await expect(page.getByTestId('scope-picker')).toHaveAttribute('aria-label', `Search in: ${device}`);
  await page.keyboard.press('Escape');
  await chat.ask('What inlet pressure range does the HX-90 coolant pump need?');
  await chat.expectLastTurn('done');

  const answer = chat.answer();
  await expect(answer).toContainText('2.5~3.65 bar');
  await expect(answer.locator('del, s, em, strong')).toHaveCount(0);

  // [1]..[n] by first use; one chip per source, in that order, labelled by its heading.
  const cited = await chat.citations().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ref'))));
  expect(cited.length).toBeGreaterThan(0);
  const firstUses = [...new Set(cited)];
  expect(firstUses).toEqual(firstUses.map((_, i) => i + 1));
  const sources = chat.lastTurn().getByTestId('source-item');
  expect(await sources.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ref'))))).toEqual(firstUses);
  await expect(sources.first().getByTestId('source-label')).toHaveText(/^p\.2( · Operating limits)?$/);
});
