'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isBusy, type ManualView } from '@/lib/manuals/view';
import { ManualList } from './manual-list';
import { TimeLeftEstimator } from './time-left';
import { UploadZone } from './upload-zone';

/** The library: upload zone + live list. Polls while anything is processing, idles otherwise. */
export function Library({ initial, maxBytes }: { initial: ManualView[]; maxBytes: number }) {
  const [manuals, setManuals] = useState(initial);
  const [loadError, setLoadError] = useState<string | null>(null);
  const estimator = useRef(new TimeLeftEstimator());
  const [progress, setProgress] = useState<Record<string, { percent: number; leftMs: number | null }>>({});

  const refresh = useCallback(async () => {
    try {
      const res = await fetch('/api/manuals', { cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const list = (await res.json()).manuals as ManualView[];
      setManuals(list);
      setProgress(estimator.current.observe(list, Date.now()));
      setLoadError(null);
    } catch (err) {
      setLoadError(`Could not refresh the library (${(err as Error).message}). Retrying…`);
    }
  }, []);

  const settled = useMemo(() => new Set(manuals.filter((m) => m.status === 'ready' || m.status === 'failed').map((m) => m.id)), [manuals]);
  const busy = manuals.some(isBusy);
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(refresh, 1000);
    return () => clearInterval(timer);
  }, [busy, refresh]);

  return (
    <div className="space-y-6">
      <UploadZone onUploaded={refresh} maxBytes={maxBytes} settledIds={settled} />
      {loadError && (
        <p role="status" className="text-sm text-amber-700 dark:text-amber-300">
          {loadError}
        </p>
      )}
      <ManualList manuals={manuals} onChanged={refresh} progress={progress} />
    </div>
  );
}
