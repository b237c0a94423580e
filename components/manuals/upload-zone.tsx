'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { formatBytes } from '@/lib/manuals/view';

interface UploadItem {
  key: string;
  name: string;
  size: number;
  sent: number;
  state: 'uploading' | 'done' | 'duplicate' | 'error';
  message?: string;
  /** The manual the upload became (its row in the list below takes over from here). */
  manualId?: string;
}

/** Sends one file as the raw request body, reporting upload progress (fetch cannot). */
function uploadFile(
  file: File,
  onProgress: (sent: number) => void,
): Promise<{ status: number; body: { error?: string; duplicate?: boolean; manual?: { id: string } } }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/manuals');
    xhr.setRequestHeader('content-type', 'application/pdf');
    xhr.setRequestHeader('x-file-name', encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: { error: 'Network error: the upload did not reach the server.' } });
    xhr.send(file);
  });
}

/** How long a message that needs nothing more from the reader stays (an upload accepted, a duplicate). */
const SUCCESS_MS = 8000;

/**
 * The drop zone and the uploads of this visit. An uploaded file's line goes once its manual is
 * ready or failed (from then on its row in the library says everything), or ~8 s after it was
 * accepted; an error stays until it is dismissed or the next upload starts. Every message can be
 * dismissed.
 */
export function UploadZone({ onUploaded, maxBytes, settledIds }: { onUploaded: () => void; maxBytes: number; settledIds: Set<string> }) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const shownElsewhere = (it: UploadItem) => it.state === 'done' && !!it.manualId && settledIds.has(it.manualId);
  const patch = (key: string, p: Partial<UploadItem>) => setItems((prev) => prev.map((it) => (it.key === key ? { ...it, ...p } : it)));
  const dismiss = (key: string) => setItems((prev) => prev.filter((it) => it.key !== key));

  // Resolved messages clear themselves: one timer per message, from when it turned into a success.
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    for (const it of items) {
      if ((it.state === 'done' || it.state === 'duplicate') && !timers.current.has(it.key)) {
        timers.current.set(
          it.key,
          setTimeout(() => dismiss(it.key), SUCCESS_MS),
        );
      }
    }
  }, [items]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((t) => clearTimeout(t));
  }, []);

  const handleFiles = useCallback(
    async (files: FileList | File[]) => {
      const list = Array.from(files);
      const fresh = list.map((f, i) => ({ key: `${Date.now()}-${i}-${f.name}`, name: f.name, size: f.size, sent: 0, state: 'uploading' as const }));
      // A new upload replaces the errors of the last one.
      setItems((prev) => [...fresh, ...prev.filter((it) => it.state !== 'error')].slice(0, 20));
      // One at a time: the server streams each to disk; parallel uploads only compete for the link.
      for (let i = 0; i < list.length; i++) {
        const file = list[i];
        const { key } = fresh[i];
        if (file.size > maxBytes) {
          patch(key, { state: 'error', message: `Larger than the ${formatBytes(maxBytes)} limit.` });
          continue;
        }
        const res = await uploadFile(file, (sent) => patch(key, { sent }));
        if (res.status >= 200 && res.status < 300) {
          patch(key, {
            state: res.body.duplicate ? 'duplicate' : 'done',
            sent: file.size,
            manualId: res.body.manual?.id,
            message: res.body.duplicate ? 'Already in the library.' : undefined,
          });
        } else {
          patch(key, { state: 'error', message: res.body.error ?? `Upload failed (HTTP ${res.status}).` });
        }
        onUploaded();
      }
    },
    [maxBytes, onUploaded],
  );

  return (
    <section aria-label="Upload manuals" className="space-y-3">
      <label
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (e.dataTransfer.files.length) void handleFiles(e.dataTransfer.files);
        }}
        data-testid="upload-zone"
        className={`flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-6 py-8 text-center outline-offset-2 outline-brand-500 transition-colors has-[input:focus-visible]:outline-2 ${
          dragging ? 'border-brand-500 bg-brand-50 dark:bg-brand-700/10' : 'border-zinc-300 hover:border-brand-500 dark:border-zinc-700'
        }`}
      >
        <span className="text-sm font-medium">Drop PDF manuals here, or click to choose files</span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">Up to {formatBytes(maxBytes)} each. Scanned pages are read with OCR.</span>
        <input
          ref={inputRef}
          type="file"
          accept="application/pdf,.pdf"
          multiple
          data-testid="upload-input"
          className="sr-only"
          onChange={(e) => {
            if (e.target.files?.length) void handleFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </label>
      {items.some((it) => !shownElsewhere(it)) && (
        <ul className="space-y-1 text-sm" aria-live="polite">
          {items
            .filter((it) => !shownElsewhere(it))
            .map((it) => (
              <li
                key={it.key}
                data-testid="upload-item"
                data-state={it.state}
                className="flex items-center gap-3 rounded-md bg-zinc-50 px-3 py-2 dark:bg-zinc-900"
              >
                <span className="min-w-0 flex-1 truncate" title={it.name}>
                  {it.name}
                </span>
                {it.state === 'uploading' ? (
                  <span className="w-40">
                    <progress className="h-1.5 w-full" max={it.size || 1} value={it.sent} aria-label={`Uploading ${it.name}`} />
                  </span>
                ) : (
                  <span data-testid="upload-message" className={it.state === 'error' ? 'text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}>
                    {it.state === 'done' ? 'Uploaded: processing in the list below' : it.message}
                  </span>
                )}
                {it.state !== 'uploading' && (
                  <button
                    type="button"
                    data-testid="upload-dismiss"
                    onClick={() => dismiss(it.key)}
                    aria-label={`Dismiss the message about ${it.name}`}
                    title="Dismiss"
                    className="-my-1 rounded px-1.5 py-0.5 text-base leading-none text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                )}
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
