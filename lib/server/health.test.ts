/**
 * /api/health's memory per process: the web server's own figures and those of the
 * ingest worker it starts — a real worker process (lib/ingest/worker.ts) answering over IPC.
 * Health never waits for that worker (the last figure and its age), and a worker that
 * dies is restarted and counted.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { healthReport } from './health';
import { startIngestWorker, stopIngestWorker } from '../ingest/worker-client';

afterAll(() => stopIngestWorker());

/** Waits until the report's worker figure is the worker's own answer (it answers once its IPC handler is set up). */
async function workerFigure(notPid?: number) {
  // The ceiling only turns a worker that never answers into a clear failure before the test's timeout.
  return vi.waitFor(
    async () => {
      const { worker } = (await healthReport()).memory;
      expect(worker?.source).toBe('worker');
      if (notPid) expect(worker?.pid).not.toBe(notPid);
      return worker!;
    },
    { timeout: 50_000, interval: 100 },
  );
}

describe('healthReport().memory', () => {
  it('has no worker entry while this process started no worker', async () => {
    const { memory, pid, restarts } = await healthReport();
    expect(pid).toBe(process.pid);
    expect(memory.pid).toBe(process.pid);
    expect(memory.rssMb).toBeGreaterThan(10);
    expect(memory.heapUsedMb).toBeGreaterThan(1);
    expect(memory.worker).toBeNull();
    expect(restarts).toEqual({ server: 0, worker: 0, pdfWorkers: 0 });
  });

  it('reports the ingest worker as its own process, measured by the worker itself, with the figure’s age', async () => {
    startIngestWorker();
    const worker = await workerFigure();
    expect(worker.pid).not.toBe(process.pid);
    expect(worker.rssMb).toBeGreaterThan(10);
    expect(worker.heapUsedMb).toBeGreaterThan(1);
    expect(worker.heapUsedMb!).toBeLessThan(worker.rssMb);
    expect(worker.ageMs).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('answers at once while the worker cannot answer: the figure it has, with its age, then /proc', async () => {
    const before = await workerFigure();
    // A stopped process reads no IPC message: the busiest worker there is.
    process.kill(before.pid, 'SIGSTOP');
    try {
      // The background refresh gives up on the worker and reads its resident memory from /proc;
      // every health request meanwhile answers with the figure it has.
      const fromProc = await vi.waitFor(
        async () => {
          const worker = (await healthReport()).memory.worker;
          expect(worker?.source).toBe('proc');
          return worker!;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(fromProc.pid).toBe(before.pid);
      expect(fromProc.rssMb).toBeGreaterThan(10);
      expect(fromProc.ageMs).toBeGreaterThanOrEqual(0);
      // Seen two seconds later (the clock moved by hand, nothing waited for), that figure is
      // stale: the report starts a refresh the stopped worker cannot answer and returns the figure
      // it has, two seconds old. A report that waited for the refresh would carry a new one.
      vi.useFakeTimers({ toFake: ['Date'] });
      let later: Awaited<ReturnType<typeof healthReport>>;
      try {
        vi.setSystemTime(Date.now() + 2000);
        later = await healthReport();
      } finally {
        vi.useRealTimers();
      }
      expect(later.memory.worker).toMatchObject({ pid: before.pid, source: 'proc' });
      expect(later.memory.worker!.ageMs).toBeGreaterThanOrEqual(2000);
    } finally {
      process.kill(before.pid, 'SIGCONT');
    }
    // Awake again, it answers for itself.
    expect((await workerFigure()).pid).toBe(before.pid);
  }, 60_000);

  it('a worker killed with SIGKILL is restarted and counted', async () => {
    const old = await workerFigure();
    process.kill(old.pid, 'SIGKILL');
    const fresh = await workerFigure(old.pid);
    expect(fresh.pid).not.toBe(old.pid);
    expect((await healthReport()).restarts.worker).toBe(1);
  }, 60_000);

  it('has no worker entry once the worker is stopped', async () => {
    await stopIngestWorker();
    expect((await healthReport()).memory.worker).toBeNull();
  });
});

describe('healthReport().index', () => {
  it('shows the active embedders’ fingerprint and how many manuals wait for a re-embed', async () => {
    const { index } = await healthReport();
    expect(index).toMatchObject({
      fingerprint: expect.stringMatching(/^offline:hashed-ngrams@2:768:.+ \+ local:offline:hashed-ngrams@2:tokens:/),
      stale: 0,
      manuals: [],
    });
  });
});
