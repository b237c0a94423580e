/**
 * The ingest worker the server starts, as a real process, given a CPU-bomb manual (every page
 * draws one shared stream of path operators) and then a normal one: the normal manual becomes
 * ready while the bomb still runs beside it, the worker stays listed as alive with the bomb's job
 * under a renewed lease, and the bomb fails within its page budget with the page named.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getConfig } from '@/lib/config';
import { acceptUpload } from '@/lib/manuals/service';
import { queueReport } from '@/lib/store/jobs';
import { getManual } from '@/lib/store/manuals';
import { restoreEnv, snapshotEnv } from '@/test/env';
import { stopPdfWorkers } from '../pdf-worker/pool';
import { cpuBombPdf } from './testing/cpu-bomb';
import { closeIngestStack } from './testing/teardown';
import { ingestWorkerStats, startIngestWorker, stopIngestWorker } from './worker-client';

const saved = snapshotEnv(['INGEST_PAGE_TIMEOUT_S', 'MC_JOB_LEASE_MS']);
afterAll(async () => {
  await stopIngestWorker();
  stopPdfWorkers();
  restoreEnv(saved);
  await closeIngestStack();
});

async function* bytesOf(data: Uint8Array) {
  yield data;
}

async function upload(pdf: Uint8Array, name: string): Promise<string> {
  return (await acceptUpload(bytesOf(pdf), name, 'owner-a')).manual.id;
}

async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 2; i++) doc.addPage([612, 792]).drawText(`Pump controller page ${i + 1}`, { x: 50, y: 700, size: 24 });
  return doc.save();
}

/** Polls until `id` reaches `statuses`; the ceiling only turns a hang into a clear failure. */
const reaches = (id: string, statuses: string[]) =>
  vi.waitFor(
    async () => {
      const m = await getManual(id);
      expect(statuses).toContain(m?.status);
      return m!;
    },
    { timeout: 180_000, interval: 200 },
  );

describe('the ingest worker given a CPU bomb', () => {
  it('fails it within the page budget while a manual uploaded after it becomes ready', async () => {
    // MC_BOMB_REALISTIC=1 measures the probe's file (an 8 MB stream) under the default settings.
    const realistic = process.env.MC_BOMB_REALISTIC === '1';
    // Long enough for the normal manual to be read beside it; the bomb's first page needs minutes.
    if (!realistic) process.env.INGEST_PAGE_TIMEOUT_S = '20';
    // Renewed every 1.5 s: a worker whose loop a page blocked would lose it (and health its heartbeat).
    if (!realistic) process.env.MC_JOB_LEASE_MS = '6000';
    const budgetS = getConfig().ingestLimits.pageTimeoutMs / 1000;
    startIngestWorker();
    const bomb = await upload(await cpuBombPdf({ pages: 200, mb: realistic ? 8 : 4 }), 'bomb.pdf');
    const uploaded = Date.now();
    await reaches(bomb, ['parsing']);
    const t0 = Date.now();
    const good = await upload(await twoPagePdf(), 'good.pdf');
    const ready = await reaches(good, ['ready', 'failed']);
    expect(ready.status, ready.error ?? '').toBe('ready');
    const readyMs = Date.now() - t0;
    // The bomb is still being drawn: it ran beside it, and the worker is alive and holds its job.
    expect((await getManual(bomb))?.status).toBe('parsing');
    const queue = await queueReport();
    expect(queue.expired).toBe(0);
    expect(queue.workers.flatMap((w) => w.jobs.map((j) => j.id))).toContain(bomb);
    const failed = await reaches(bomb, ['ready', 'failed']);
    const { peakRssMb } = ingestWorkerStats();
    console.log(
      `[test] normal manual ready ${readyMs} ms after its upload; bomb failed ${Date.now() - uploaded} ms after its own; worker peak ${peakRssMb} MB`,
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(new RegExp(`^Page 1 takes too long to draw \\(more than ${budgetS} s\\)`));
    expect(failed.attempts).toBe(0);
  }, 240_000);
});
