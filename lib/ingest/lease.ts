/**
 * Holding a job's lease while a worker runs it (ingest or re-embed): renewed every quarter lease,
 * so a worker that dies leaves the job to another once the lease runs out.
 */
import { jobLeaseMs, renewLease } from '../store/jobs';

/**
 * The abort reason when this worker lost its lease (it stalled for a whole lease and another
 * worker reclaimed the job): stop, and touch nothing — the job's output now belongs to the other.
 */
export class LeaseLost extends Error {}

export interface HeldLease {
  /** Aborts with LeaseLost when another worker holds the job. */
  signal: AbortSignal;
  /** Stops renewing (the job ended, or was given up). */
  release(): void;
}

/** Renews the lease on `manualId` until released; `tag` names the worker's log lines. */
export function holdLease(manualId: string, workerId: string, tag: string): HeldLease {
  const lease = new AbortController();
  const timer = setInterval(() => {
    renewLease(manualId, workerId).then(
      (held) => held || lease.abort(new LeaseLost(`lease on ${manualId} lost`)),
      (err) => console.error(`[${tag}] lease renewal failed`, manualId, err instanceof Error ? err.message : err),
    );
  }, jobLeaseMs() / 4);
  timer.unref();
  return { signal: lease.signal, release: () => clearInterval(timer) };
}
