/**
 * One `npm start` per DATA_DIR. Two servers on one data folder remove each other's uploads in
 * flight (each cleans up after "its" last run) and write one SQLite file, so the second start
 * exits before it touches anything. The lock file records the holder's pid, port and process
 * start time; a lock whose process is gone (a kill -9, a reboot that reused the pid) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  port: number;
  /** The process's start time in clock ticks since boot (Linux /proc), so a reused pid does not count as the holder. */
  startTicks: number | null;
}

const lockFileOf = (dataDir: string) => path.join(dataDir, 'instance.lock');

/** Start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat); null where /proc cannot tell. */
function startTicksOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces or parentheses): state is field 3, start time field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function holds(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTicksOf(holder.pid);
  return holder.startTicks === null || now === null || now === holder.startTicks;
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(h.pid) && h.pid > 0 ? h : null;
  } catch {
    return null;
  }
}

/**
 * Takes DATA_DIR's lock for this process, or names the live process that holds it. The lock is
 * given back when this process exits (or by `release`); a stale one is replaced.
 */
export function acquireInstanceLock(dataDir: string, port: number): { ok: true; release: () => void } | { ok: false; holder: LockHolder } {
  const file = lockFileOf(dataDir);
  const mine: LockHolder = { pid: process.pid, port, startTicks: startTicksOf(process.pid) };
  for (let attempt = 0; ; attempt++) {
    try {
      // Exclusive create: of two starts at once, one wins.
      fs.writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && holds(holder)) return { ok: false, holder };
      // Another start took over the same stale lock between our two tries.
      if (attempt > 0) throw err;
      fs.rmSync(file, { force: true }); // stale: its process is gone (or it was never written whole)
    }
  }
  const release = () => {
    if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.once('exit', release);
  return { ok: true, release };
}
