/**
 * /api/health's memory per process (issue 16): the web server's own figures and those of the
 * ingest worker it starts — a real worker process (lib/ingest/worker.ts) answering over IPC.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { healthReport } from './health';
import { startIngestWorker, stopIngestWorker } from '../ingest/worker-client';

afterAll(() => stopIngestWorker());

describe('healthReport().memory', () => {
  it('has no worker entry while this process started no worker', async () => {
    const { memory } = await healthReport();
    expect(memory.pid).toBe(process.pid);
    expect(memory.rssMb).toBeGreaterThan(10);
    expect(memory.heapUsedMb).toBeGreaterThan(1);
    expect(memory.worker).toBeNull();
  });

  it('reports the ingest worker as its own process, measured by the worker itself', async () => {
    startIngestWorker();
    // The worker answers once its IPC handler is set up; until then it is measured from /proc or absent.
    // The ceiling only turns a worker that never answers into a clear failure before the test's timeout.
    const worker = await vi.waitFor(
      async () => {
        const { worker } = (await healthReport()).memory;
        expect(worker?.source).toBe('worker');
        return worker!;
      },
      { timeout: 50_000, interval: 100 },
    );
    expect(worker.pid).not.toBe(process.pid);
    expect(worker.rssMb).toBeGreaterThan(10);
    expect(worker.heapUsedMb).toBeGreaterThan(1);
    expect(worker.heapUsedMb!).toBeLessThan(worker.rssMb);
  }, 60_000);

  it('has no worker entry once the worker is stopped', async () => {
    await stopIngestWorker();
    expect((await healthReport()).memory.worker).toBeNull();
  });
});

describe('healthReport().index', () => {
  it('shows the active embedders’ fingerprint and how many manuals wait for a re-embed', async () => {
    const { index } = await healthReport();
    expect(index).toMatchObject({ fingerprint: expect.stringMatching(/^offline:hashed-ngrams@2:768:.+ \+ local:offline:hashed-ngrams@2:tokens:/), stale: 0, manuals: [] });
  });
});
