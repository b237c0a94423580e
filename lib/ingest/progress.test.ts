/**
 * The progress the Manuals page shows, as the store records it during a real ingest of the sample
 * manual (born-digital, ten pages, one of them a rating plate that exists only as an image): every
 * update the pipeline writes is read back through the store's own function and turned into the
 * percent and stage label the page would show.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSampleManual } from '@/lib/sample';
import { acceptUpload } from '@/lib/manuals/service';
import { overallPercent, stageLabel } from '@/lib/manuals/view';
import * as manuals from '@/lib/store/manuals';
import { ingestManual } from './pipeline';
import { closeIngestStack } from './testing/teardown';

// The store's functions as they are (spy: true keeps every implementation; the database is real),
// so each progress write can be observed.
vi.mock('@/lib/store/manuals', { spy: true });

async function* bytesOf(data: Uint8Array) {
  yield data;
}

interface Seen {
  status: string;
  percent: number;
  label: string;
  ocrPages: number;
}
const seen: Seen[] = [];
let summary: Awaited<ReturnType<typeof ingestManual>>;

beforeAll(async () => {
  const { pdf } = await generateSampleManual();
  const { manual } = await acceptUpload(bytesOf(pdf), 'progress-sample.pdf', 'owner-progress');
  vi.mocked(manuals.updateManual).mockClear();
  const updates = vi.mocked(manuals.updateManual);
  // Read each update back right after it lands: the row the Manuals page would be given.
  updates.mockImplementation(async (id, patch) => {
    await vi.importActual<typeof manuals>('@/lib/store/manuals').then((real) => real.updateManual(id, patch));
    const m = await manuals.getManual(id);
    if (m && id === manual.id)
      seen.push({ status: m.status, percent: overallPercent(m), label: stageLabel({ ...m, queuePosition: null }), ocrPages: m.ocrPages });
  });
  summary = await ingestManual(manual.id);
}, 180_000);

afterAll(closeIngestStack);

describe('progress of the sample manual ingest', () => {
  it('ends ready', () => {
    expect(summary?.status).toBe('ready');
    expect(seen.at(-1)?.status).toBe('ready');
  });

  it('reports 0 scanned pages throughout: its one raster page has a text layer, so OCR reads only the figure on it', () => {
    // Page 5 states its heading and text; the rating plate is an image region on it, read by OCR
    // in the figure (sparse) mode. OCR reads no page whole, so no page is a scanned page.
    expect(seen.map((s) => s.ocrPages)).toEqual(seen.map(() => 0));
    expect(summary?.ocrPages).toBe(0);
    expect(seen.some((s) => /scanned/.test(s.label))).toBe(false);
  });

  it('moves with the work: never back, never more than 15 points at once', () => {
    const percents = seen.map((s) => s.percent);
    console.info('[progress]', percents.join(' '), summary?.timings);
    for (let i = 1; i < percents.length; i++) {
      expect(percents[i], `update ${i}: ${percents.join(' ')}`).toBeGreaterThanOrEqual(percents[i - 1]);
      expect(percents[i] - percents[i - 1], `update ${i}: ${percents.join(' ')}`).toBeLessThanOrEqual(15);
    }
    expect(percents.at(-1)).toBe(100);
  });
});
