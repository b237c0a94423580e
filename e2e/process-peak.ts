/**
 * The peak resident memory of a server process (Linux /proc), for specs that bound what an attack
 * costs: the kernel's high-water mark (VmHWM) sees a spike between two polls of /api/health, and
 * writing 5 to clear_refs resets it, so the figure belongs to the attack alone.
 */
import fs from 'node:fs';

/** Starts a fresh high-water mark at the process's current resident memory. */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The process's peak resident memory in MB since it started or since resetPeakRss. */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for process ${pid}`);
  return Math.round(Number(m[1]) / 1024);
}
