/**
 * Who holds a job: `<host>/<pid>/<random>` for this process, written into the job's lease. A job
 * whose holder ran on this host under a pid that no longer exists is known dead at once, without
 * waiting for its lease to run out (a restarted worker on the same machine recovers immediately).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { runtimeEnv } from '../config';

/** The machine's name in worker ids (MC_WORKER_HOST, default the hostname); never contains '/'. */
const host = (runtimeEnv('MC_WORKER_HOST') ?? os.hostname()).replaceAll('/', '-');
const started = new Date();
const id = `${host}/${process.pid}/${randomBytes(3).toString('hex')}`;

export function processWorkerId(): string {
  return id;
}

export function processWorkerInfo() {
  return { id, host, pid: process.pid, startedAt: started };
}

/** Of these worker ids, the ones that ran on this host in a process that has exited. */
export function deadLocalWorkers(workerIds: string[]): string[] {
  return workerIds.filter((w) => {
    const [workerHost, pid] = w.split('/');
    if (workerHost !== host || w === id) return false;
    const n = Number(pid);
    if (!Number.isInteger(n) || n <= 0) return false;
    try {
      process.kill(n, 0);
      return false;
    } catch (err) {
      // EPERM: the pid exists (another user's process), so it is not known dead.
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  });
}
