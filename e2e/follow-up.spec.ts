/**
 * A follow-up that swaps a qualifier ("and channel 3?") is searched as the previous
 * question with that qualifier, the trail shows the question as it was read, and the answer quotes
 * channel 3's page, not channel 1's. The manual is generated here: one page per channel.
 */
import { linesPdf, type PdfLine } from '../lib/ingest/testing/lines-pdf';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { tempPdf } from './sample-pdf';

const DEVICE = 'Acme PS-3 Bench Supply';
/** Channel → its output current limit, each on a page of its own (pages 2, 3, 4). */
const LIMITS = [
  ['1', '3.2 A'],
  ['2', '2.4 A'],
  ['3', '1.6 A'],
] as const;

async function channelManual(): Promise<{ path: string; fileName: string }> {
  const pages: PdfLine[][] = [
    [
      [DEVICE, 22, true],
      ['Operating manual', 15, false],
    ],
    ...LIMITS.map(([channel, limit]): PdfLine[] => [
      [`Channel ${channel} output`, 15, true],
      [`Channel ${channel} delivers a maximum output current of ${limit}.`, 10, false],
      [`Set the voltage of channel ${channel} with its own knob before you enable the output.`, 10, false],
    ]),
  ];
  // Below the header band: lines repeated at the top of most pages are running headers.
  return tempPdf(await linesPdf(`${DEVICE} Manual`, pages, 700), 'acme-ps3-channels');
}

test('"and channel 3?" after a channel 1 question is read as channel 3 and cites its page', async ({ page }) => {
  test.setTimeout(300_000);
  const manuals = new ManualsPage(page);
  const chat = new ChatPage(page);
  const pdf = await channelManual();
  await manuals.goto();
  await manuals.upload(pdf.path);
  await manuals.expectReady(manuals.row(pdf.fileName));

  await chat.askInNewChat('What is the maximum output current of channel 1 on the PS-3?');
  await expect(chat.answer()).toContainText('3.2 A');

  await chat.ask('and channel 3?');
  await chat.expectLastTurn('done');
  const turn = chat.lastTurn();
  await expect(chat.answer(turn)).toContainText('1.6 A');
  await expect(chat.answer(turn)).not.toContainText('3.2 A');
  // The citation opens channel 3's page.
  const sources = turn.getByTestId('source-item');
  await expect(sources.first().getByTestId('source-label')).toHaveText(/^p\.4\b/);

  // The trail says how the follow-up was read.
  await turn.getByTestId('trail-toggle').click();
  const read = turn.getByTestId('trail-step').filter({ hasText: 'Read as a follow-up' });
  await expect(read).toHaveAttribute('data-kind', 'question');
  await expect(read).toContainText(/channel 3/i);
  await expect(read).not.toContainText(/channel 1/i);
});
