import { isBusy, overallPercent, type ManualView } from '@/lib/manuals/view';

/**
 * Time left for each manual being processed, from its overall (cost-weighted) progress: the rate
 * seen since it was first seen working × what is left. The percentage shown never goes back
 * (an estimate of the OCR share can shift while pages are read). Null until there is a rate.
 */
export class TimeLeftEstimator {
  private readonly seen = new Map<string, { pct: number; at: number; shown: number }>();

  observe(manuals: ManualView[], now: number): Record<string, { percent: number; leftMs: number | null }> {
    const out: Record<string, { percent: number; leftMs: number | null }> = {};
    for (const m of manuals) {
      const active = isBusy(m) && m.status !== 'queued';
      if (!active) {
        this.seen.delete(m.id);
        continue;
      }
      const pct = overallPercent(m);
      const first = this.seen.get(m.id);
      if (!first) {
        this.seen.set(m.id, { pct, at: now, shown: pct });
        out[m.id] = { percent: pct, leftMs: null };
        continue;
      }
      first.shown = Math.max(first.shown, pct);
      const rate = (first.shown - first.pct) / Math.max(1, now - first.at);
      out[m.id] = { percent: first.shown, leftMs: rate > 0 && now - first.at >= 2000 ? (100 - first.shown) / rate : null };
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
