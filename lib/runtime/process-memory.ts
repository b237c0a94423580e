/**
 * Memory of this process and of other processes by pid, in MB, for /api/health (issue 16: the
 * web server and the ingest worker each report what they hold).
 */
import fs from 'node:fs';

export interface ProcessMemory {
  pid: number;
  rssMb: number;
  heapUsedMb?: number;
  externalMb?: number;
  arrayBuffersMb?: number;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** This process: resident set, V8 heap in use, and memory outside the heap (buffers, typed arrays). */
export function ownMemory(): ProcessMemory {
  const m = process.memoryUsage();
  return { pid: process.pid, rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) };
}

/** Resident memory of another process from /proc (Linux); null where that cannot be read. */
export function rssOfPid(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}
