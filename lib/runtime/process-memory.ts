/**
 * Memory of this process and of other processes by pid, in MB, for /api/health: the web
 * server and the ingest worker each report what they hold.
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

/**
 * glibc settings for the app's Node processes (web server, ingest worker, PDF workers): two malloc
 * arenas (the native libraries' many threads — LanceDB, libsql, sharp, the canvas — otherwise each
 * grow one of their own), blocks over 128 kB mapped on their own, and freed memory trimmed, so
 * glibc hands memory back after a page's buffers are freed. The load test's server RSS climbed to
 * 549–728 MB without them and to 440 MB with them; an ingest worker idle after a small manual,
 * 531 → 456 MB (docs/benchmarks.md). Values already in the environment win.
 */
export const LEAN_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
