import { claimInterrupted, requeueInterrupted, runningWorkerIds } from '../store/jobs';
import { discardPartialOutput } from './partial-output';
import { deadLocalWorkers, processWorkerId } from './worker-id';

/**
 * Jobs left mid-way by a dead or stuck worker — its lease ran out, or it ran on this machine and
 * its process is gone — have their partial output removed and are queued again (or failed when
 * they keep getting interrupted). Run by every worker on start and then periodically, and by the
 * CLI; each job is reclaimed by one of them only. Never leaves a half-indexed manual.
 */
export async function recoverInterruptedJobs(workerId = processWorkerId()): Promise<Array<{ id: string; outcome: 'requeued' | 'failed' }>> {
  const out: Array<{ id: string; outcome: 'requeued' | 'failed' }> = [];
  const dead = deadLocalWorkers(await runningWorkerIds());
  for (const m of await claimInterrupted(workerId, dead)) {
    await discardPartialOutput(m.id);
    out.push({ id: m.id, outcome: await requeueInterrupted(m.id, m.attempts) });
  }
  return out;
}
