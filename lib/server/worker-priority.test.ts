/**
 * Health under load: the ingest worker the server starts runs below the server's CPU priority, so
 * ingesting uploads (OCR, rendering, embedding) does not take the CPU that requests and
 * /api/health are waiting for. A real worker process; its priority read back from the OS.
 */
import os from 'node:os';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startIngestWorker, stopIngestWorker } from '../ingest/worker-client';
import { healthReport } from './health';

afterAll(() => stopIngestWorker());

describe('the ingest worker beside the web server', () => {
  it('runs at a lower CPU priority (a higher nice value) than the server', async () => {
    startIngestWorker();
    // The worker's pid as health reports it, once the worker answers (bounded by the test's timeout).
    const pid = await vi.waitFor(
      async () => {
        const worker = (await healthReport()).memory.worker;
        expect(worker?.source).toBe('worker');
        return worker!.pid;
      },
      { timeout: 50_000, interval: 100 },
    );
    expect(os.getPriority(pid)).toBeGreaterThan(os.getPriority(process.pid));
  }, 60_000);
});
