import { interruptedManuals, requeueInterrupted } from '../store/jobs';
import { discardPartialOutput } from './pipeline';

/**
 * On worker start: every job left mid-way by a dead process has its partial output removed and
 * is queued again (or failed when it keeps getting interrupted). Never leaves a half-indexed manual.
 */
export async function recoverInterruptedJobs(): Promise<Array<{ id: string; outcome: 'requeued' | 'failed' }>> {
  const out: Array<{ id: string; outcome: 'requeued' | 'failed' }> = [];
  for (const m of await interruptedManuals()) {
    await discardPartialOutput(m.id);
    out.push({ id: m.id, outcome: await requeueInterrupted(m.id, m.attempts) });
  }
  return out;
}
