/**
 * Progressive availability: a long manual is asked about its early pages while it is
 * still processing. The answer cites them and says the manual is still processing; once the
 * manual is ready, the same question gives the same page.
 *
 * The processing window is held open by the test server's ingest gate (lib/ingest/e2e-gate.ts):
 * while the gate file holds N, the ingest pauses once N pages are searchable. No timing involved.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { generateSampleManual } from '../lib/sample';
import { generateLargeManual } from '../lib/sample/large';
import { expect, test } from './fixtures';
import { INGEST_GATE } from './ingest-gate';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';

// lib/sample/facts.ts: the safety notes on page 2 state the E-stop relay's category. A page with no
// figure, so the figure labels indexed at the end cannot change which page answers it.
const QUESTION = 'What safety category does the HX-200 emergency-stop safety relay achieve?';
const EXPECTED_PAGE = 2;
/** The ingest is held once this many pages are searchable. */
const HELD_AT = 12;
const LONG_PAGES = 120;

/** The sample manual's 10 pages followed by 110 generated ones: a 120-page HX-200 manual. */
async function longManual(): Promise<string> {
  const doc = await PDFDocument.load((await generateSampleManual()).pdf);
  const rest = await PDFDocument.load(await generateLargeManual({ pages: LONG_PAGES - doc.getPageCount(), scannedEvery: 1000, seed: 32 }));
  for (const page of await doc.copyPages(rest, rest.getPageIndices())) doc.addPage(page);
  const file = path.join(os.tmpdir(), 'mc-e2e-sample', `acme-hx200-long-${Date.now().toString(36)}.pdf`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await doc.save());
  return file;
}

/** The pages the last answer's sources name ("Manual, page 3 — …"). */
async function sourcePages(chat: ChatPage): Promise<number[]> {
  const titles = await chat
    .lastTurn()
    .getByTestId('source-label')
    .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  return titles.map((t) => Number(/, page (\d+)/.exec(t)?.[1]));
}

test.afterAll(() => fs.rmSync(INGEST_GATE, { force: true }));

test('a manual still processing answers from its ready pages and says so; once ready, the same page', async ({ page }) => {
  test.setTimeout(600_000);
  fs.writeFileSync(INGEST_GATE, String(HELD_AT));
  const file = await longManual();
  const manuals = new ManualsPage(page);
  await manuals.goto();
  await manuals.upload(file);
  const row = manuals.row(path.basename(file));
  await expect(row).toHaveCount(1);
  // Searchable through its first pages while still processing (held there by the gate).
  await expect(row.getByTestId('manual-searchable')).toContainText(`of ${LONG_PAGES} · figure labels pending`, { timeout: 240_000 });
  await expect(row).not.toHaveAttribute('data-status', 'ready');

  const chat = new ChatPage(page);
  await chat.goto('/');
  // The scope picker offers it, marked as processing.
  await page.getByTestId('scope-picker').click();
  await expect(page.getByTestId('scope-option-searchable')).toContainText(/Processing · Searchable through page \d+ of 120/);
  await page.keyboard.press('Escape');

  await chat.ask(QUESTION);
  await chat.expectLastTurn('done');
  await expect(chat.answer()).toContainText('is still processing');
  await expect(chat.answer()).toContainText('this answer may be incomplete');
  const whileProcessing = await sourcePages(chat);
  expect(whileProcessing[0]).toBe(EXPECTED_PAGE);
  // The trail says how far it was searchable.
  await chat.lastTurn().getByTestId('trail-toggle').click();
  await expect(chat.lastTurn().getByTestId('trail-step').filter({ hasText: 'still processing' })).toContainText(
    /searchable through page \d+ of 120 · figure labels pending/,
  );

  // Released: the ingest goes on to the end.
  fs.rmSync(INGEST_GATE);
  await manuals.goto();
  await manuals.expectReady(row);
  await expect(row.getByTestId('manual-searchable')).toHaveCount(0);

  await chat.askInNewChat(QUESTION);
  await expect(chat.answer()).not.toContainText('still processing');
  expect((await sourcePages(chat))[0]).toBe(whileProcessing[0]);
});
