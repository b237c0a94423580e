import type { ManualView } from '@/lib/manual-view';

/**
 * Time left in each manual's current stage, estimated from the progress seen since the stage was
 * first observed (pages done per ms so far × pages to go). Null until there is a rate.
 */
export class TimeLeftEstimator {
  private readonly seen = new Map<string, { status: string; done: number; at: number }>();

  observe(manuals: ManualView[], now: number): Record<string, number | null> {
    const out: Record<string, number | null> = {};
    for (const m of manuals) {
      const first = this.seen.get(m.id);
      if (!first || first.status !== m.status || m.progressDone < first.done) {
        this.seen.set(m.id, { status: m.status, done: m.progressDone, at: now });
        out[m.id] = null;
        continue;
      }
      const rate = (m.progressDone - first.done) / Math.max(1, now - first.at);
      out[m.id] = rate > 0 && m.progressTotal > m.progressDone ? (m.progressTotal - m.progressDone) / rate : null;
    }
    return out;
  }
}

export function formatTimeLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `~${s} s left`;
  const min = Math.round(s / 60);
  return min < 60 ? `~${min} min left` : `~${Math.floor(min / 60)} h ${min % 60} min left`;
}
