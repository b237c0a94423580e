/**
 * Deadlines on ingest work: pdf.js runs each ingest in a thread of its own (pdf-thread.ts), where a
 * page past its time, operator or memory budget is stopped and fails its manual with the reason,
 * while the worker's event loop (lease renewals, the other job) keeps going; a job past its own
 * deadline fails; and a worker never reclaims a job it still holds. The CPU bomb is generated
 * here at small sizes, with short budgets set through the environment.
 */
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptUpload } from '@/lib/manuals/service';
import { getDb } from '@/lib/store/db';
import { getManual } from '@/lib/store/manuals';
import { manuals } from '@/lib/store/tables';
import { restoreEnvAfterEach } from '@/test/env';
import { ingestManual } from './pipeline';
import { openPdfInThread, pdfThreadsStarted } from './pdf-thread';
import { recoverInterruptedJobs } from './recovery';
import { cpuBombPdf } from './testing/cpu-bomb';
import { closeIngestStack } from './testing/teardown';

restoreEnvAfterEach([
  'INGEST_PAGE_TIMEOUT_S',
  'INGEST_PAGE_MAX_OPERATORS',
  'INGEST_PAGE_HEAP_MB',
  'INGEST_JOB_TIMEOUT_S',
  'INGEST_JOB_S_PER_PAGE',
  'MC_JOB_LEASE_MS',
]);
afterAll(closeIngestStack);

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** Counts turns of this thread's event loop while `work` runs: a blocked loop counts none. */
async function countingTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; ms: number }> {
  let turns = 0;
  const timer = setInterval(() => turns++, 50);
  const t0 = performance.now();
  try {
    return { result: await work(), turns, ms: performance.now() - t0 };
  } finally {
    clearInterval(timer);
  }
}

describe('a page in the PDF thread', () => {
  it('is stopped past INGEST_PAGE_TIMEOUT_S with the page named, while this thread keeps turning', async () => {
    process.env.INGEST_PAGE_TIMEOUT_S = '2';
    // Drawing one page of this takes far longer than 2 s (minutes at the probe's 8 MB).
    const doc = await openPdfInThread(await cpuBombPdf({ pages: 3, mb: 4 }));
    try {
      const { result, turns, ms } = await countingTurns(() =>
        doc.renderPageRaw(1, { scale: 1.5 }).then(
          () => null,
          (e: Error) => e,
        ),
      );
      expect(result?.message).toMatch(/^Page 1 takes too long to draw \(more than 2 s\)/);
      expect(ms).toBeLessThan(10_000);
      // A timer every 50 ms kept firing: nothing ran on this thread's event loop for long.
      expect(turns).toBeGreaterThan(ms / 50 / 4);
      // The thread is gone: later calls fail with the same reason at once.
      await expect(doc.extractPage(2)).rejects.toThrow(/Page 1 takes too long to draw/);
    } finally {
      await doc.close();
    }
  }, 60_000);

  it('stops drawing past INGEST_PAGE_MAX_OPERATORS', async () => {
    process.env.INGEST_PAGE_MAX_OPERATORS = '5000';
    const doc = await openPdfInThread(await cpuBombPdf({ pages: 2, mb: 4 }));
    try {
      await expect(doc.renderPageRaw(2, { scale: 1.5 })).rejects.toThrow(/^Page 2 has too many drawing operations \(more than 5,000\)/);
    } finally {
      await doc.close();
    }
  }, 60_000);

  it('fails a page that needs more than INGEST_PAGE_HEAP_MB, leaving this process alone', async () => {
    process.env.INGEST_PAGE_HEAP_MB = '96';
    // 40 MB of operators is an operator list of several hundred MB of heap.
    const doc = await openPdfInThread(await cpuBombPdf({ pages: 1, mb: 40 }));
    try {
      await expect(doc.renderPageRaw(1, { scale: 0.1 })).rejects.toThrow(/^Page 1 needs more than 96 MB of memory to read/);
    } finally {
      await doc.close();
    }
  }, 120_000);

  it('is stopped when the job aborts', async () => {
    const job = new AbortController();
    const doc = await openPdfInThread(await cpuBombPdf({ pages: 1, mb: 4 }), { signal: job.signal });
    const drawing = doc.renderPageRaw(1, { scale: 1.5 });
    job.abort(new Error('the job ended'));
    await expect(drawing).rejects.toThrow('the job ended');
    await doc.close();
  });
});

describe('the PDF threads', () => {
  it('serve the next document from a thread that closed its last in good order, never from a stopped one', async () => {
    const bomb = await cpuBombPdf({ pages: 2, mb: 4 });
    const first = await openPdfInThread(bomb);
    await first.extractPage(1);
    await first.close();
    const started = pdfThreadsStarted();
    const job = new AbortController();
    const second = await openPdfInThread(bomb, { signal: job.signal });
    expect(pdfThreadsStarted()).toBe(started);
    const drawing = second.renderPageRaw(1, { scale: 1.5 });
    job.abort(new Error('the job ended'));
    await expect(drawing).rejects.toThrow('the job ended');
    await second.close();
    // The stopped thread is gone: the next document reads in a sound one.
    const third = await openPdfInThread(bomb);
    try {
      expect((await third.extractPage(2)).page).toBe(2);
    } finally {
      await third.close();
    }
  }, 60_000);
});

describe('an ingest with a CPU bomb', () => {
  it('fails with the page named, keeping its lease: no other worker reclaims it meanwhile', async () => {
    process.env.INGEST_PAGE_TIMEOUT_S = '3';
    // Renewed every 150 ms: a loop blocked by a page for 600 ms would lose the job.
    process.env.MC_JOB_LEASE_MS = '600';
    const { manual } = await acceptUpload(bytesOf(await cpuBombPdf({ pages: 20, mb: 4 })), 'bomb.pdf', 'owner-a');
    const reclaimed: string[] = [];
    let reclaiming = Promise.resolve();
    const reclaimer = setInterval(() => {
      reclaiming = reclaiming.then(async () => {
        for (const r of await recoverInterruptedJobs('another-host/1/abc')) reclaimed.push(r.id);
      });
    }, 100);
    try {
      const summary = await ingestManual(manual.id);
      expect(summary?.status).toBe('failed');
      expect(summary?.error).toMatch(/^Page 1 takes too long to draw \(more than 3 s\)/);
    } finally {
      clearInterval(reclaimer);
      await reclaiming;
    }
    expect(reclaimed).toEqual([]);
    expect(await getManual(manual.id)).toMatchObject({ status: 'failed', errorCode: 'too_slow', attempts: 0 });
  }, 120_000);

  it('fails past the job deadline (INGEST_JOB_TIMEOUT_S + INGEST_JOB_S_PER_PAGE × pages) when every page is within its own budget', async () => {
    process.env.INGEST_JOB_TIMEOUT_S = '2';
    process.env.INGEST_JOB_S_PER_PAGE = '0';
    // Each page draws well inside its page budget; forty of them (and their OCR) do not fit in 2 s.
    const { manual } = await acceptUpload(bytesOf(await cpuBombPdf({ pages: 40, mb: 0.3 })), 'slow.pdf', 'owner-a');
    const { result: summary, ms } = await countingTurns(() => ingestManual(manual.id));
    expect(summary?.status).toBe('failed');
    expect(summary?.error).toMatch(/^Processing this PDF took longer than its limit \(2 s\)/);
    // The deadline plus the recognitions already running when it fired.
    expect(ms).toBeLessThan(30_000);
    expect(await getManual(manual.id)).toMatchObject({ status: 'failed', errorCode: 'too_slow', searchablePages: 0 });
  }, 120_000);
});

describe('reclaiming jobs', () => {
  it('never takes back a job the reclaimer itself holds, however stale its lease', async () => {
    const { manual } = await acceptUpload(bytesOf(await cpuBombPdf({ pages: 1, mb: 0.01 })), 'held.pdf', 'owner-a');
    const db = await getDb();
    await db
      .update(manuals)
      .set({ status: 'parsing', workerId: 'this-host/1/self', leaseUntil: new Date(0) })
      .where(eq(manuals.id, manual.id));
    expect(await recoverInterruptedJobs('this-host/1/self')).toEqual([]);
    expect(await getManual(manual.id)).toMatchObject({ status: 'parsing', attempts: 0 });
    // Another worker does take it over once the lease has run out.
    expect(await recoverInterruptedJobs('other-host/2/other')).toEqual([{ id: manual.id, outcome: 'requeued' }]);
  });
});
