/**
 * The machine's load average beside each figure of the bench: on a shared 2-core machine other
 * work moves every absolute rate, so a figure is only read with the load it was taken at.
 */
import os from 'node:os';

export interface LoadSpan {
  /** 1-minute load average when the figure's measurement started and when it ended. */
  start: number;
  end: number;
}

/** The 1-minute load average, to two decimals. */
export function loadAvg1m(): number {
  return Math.round(os.loadavg()[0] * 100) / 100;
}

/** Runs `work` and returns its result with the load average at its start and end. */
export async function withLoad<T>(work: () => Promise<T>): Promise<{ result: T; load: LoadSpan }> {
  const start = loadAvg1m();
  const result = await work();
  return { result, load: { start, end: loadAvg1m() } };
}
