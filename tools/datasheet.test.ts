/**
 * A datasheet: the first page names the device and holds the asked values, with no cover page
 * before it. The device's name words are the manual's identity; the other words of that page are
 * content, so a question about them is answered from it, not declined. Real ingest,
 * real index, the offline loop.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { collectTurn, eventsOf } from '@/lib/agent/testing/turn';
import { agentServices } from '@/lib/services/agent-services';
import { ingestManual } from '@/lib/ingest/pipeline';
import { acceptUpload } from '@/lib/manuals/service';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { linesPdf } from '@/lib/ingest/testing/lines-pdf';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** The device's name and its operating limits on page 1, with no cover page before it. */
function datasheet(): Promise<Uint8Array> {
  return linesPdf('Acme HX-90 Coolant Pump Datasheet', [
    [
      ['Acme HX-90 Coolant Pump', 22, true],
      ['Operating limits', 15, true],
      ['The inlet pressure range is 2.5~3.65 bar.', 10, false],
      ['The coolant temperature range is 5~60 C.', 10, false],
      ['Outside these ranges the controller stops the pump and shows a warning.', 10, false],
    ],
    [
      ['Maintenance', 15, true],
      ['Clean the strainer of the coolant pump every month and replace its seal once a year.', 10, false],
      ['Connect the motor cable to terminals U, V and W.', 10, false],
    ],
  ]);
}

let manualId: string;

beforeAll(async () => {
  const { manual } = await acceptUpload(bytesOf(await datasheet()), 'acme-hx90-datasheet.pdf', 'owner');
  manualId = manual.id;
  expect((await ingestManual(manualId))?.status).toBe('ready');
}, 180_000);

afterAll(closeIngestStack);

it('answers from a first page that holds the asked values', async () => {
  const events = await collectTurn({
    tools: defaultTools,
    question: 'What inlet pressure range does the HX-90 coolant pump need?',
    manualIds: [manualId],
    services: agentServices({ llm: null, vlm: null }),
  });
  const response = eventsOf(events, 'response')[0];
  expect(response.mode).toBe('answer');
  expect(response.text).toContain('2.5~3.65 bar');
  expect(response.sources[0]).toMatchObject({ manualId, page: 1 });
}, 120_000);
