'use client';

import Link from 'next/link';
import { useState } from 'react';
import { formatBytes, formatDate, isBusy, overallPercent, searchableLabel, stageLabel, type ManualView } from '@/lib/manuals/view';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatTimeLeft } from './time-left';
import { manualLink } from '@/lib/text/page-links';

const STATUS_STYLE: Record<string, string> = {
  ready: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-900',
  failed: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-900',
  active: 'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-900',
};

export function ManualList({
  manuals,
  onChanged,
  progress = {},
}: {
  manuals: ManualView[];
  onChanged: () => void;
  progress?: Record<string, { percent: number; leftMs: number | null }>;
}) {
  const [confirming, setConfirming] = useState<ManualView | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [rowError, setRowError] = useState<Record<string, string>>({});

  if (manuals.length === 0) {
    return (
      <div
        data-testid="manuals-empty-state"
        className="rounded-xl border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
      >
        <p className="font-medium text-zinc-800 dark:text-zinc-200">No manuals yet</p>
        <p>Upload a PDF above: its pages, text and figures become searchable in a minute or two.</p>
      </div>
    );
  }

  const remove = async (m: ManualView) => {
    setConfirming(null);
    const res = await fetch(`/api/manuals/${encodeURIComponent(m.id)}`, { method: 'DELETE' });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      setRowError((e) => ({ ...e, [m.id]: body.error ?? `Could not delete (HTTP ${res.status}).` }));
    }
    onChanged();
  };

  const rename = async (m: ManualView, title: string) => {
    const res = await fetch(`/api/manuals/${encodeURIComponent(m.id)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    const body = await res.json().catch(() => ({}));
    setRowError((e) => ({ ...e, [m.id]: res.ok ? '' : (body.error ?? `Could not rename (HTTP ${res.status}).`) }));
    if (res.ok) setRenaming(null);
    onChanged();
  };

  const retryWithPassword = async (m: ManualView, password: string) => {
    const res = await fetch(`/api/manuals/${encodeURIComponent(m.id)}/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    const body = await res.json().catch(() => ({}));
    setRowError((e) => ({ ...e, [m.id]: res.ok ? '' : (body.error ?? 'Could not open the file with that password.') }));
    onChanged();
  };

  return (
    <>
      <div className="overflow-hidden rounded-xl border border-zinc-200 dark:border-zinc-800">
        <table className="w-full text-left text-sm">
          <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
            <tr>
              <th className="px-3 py-2 font-medium sm:px-4">Manual</th>
              <th className="hidden px-4 py-2 font-medium sm:table-cell">Pages</th>
              <th className="px-3 py-2 font-medium sm:px-4">Status</th>
              <th className="hidden px-4 py-2 font-medium sm:table-cell">Size</th>
              <th className="hidden px-4 py-2 font-medium md:table-cell">Added</th>
              <th className="px-2 py-2 sm:px-4">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {manuals.map((m) => {
              const active = m.status !== 'ready' && m.status !== 'failed';
              // A ready manual being re-embedded stays ready (and linked); its progress shows below.
              const working = isBusy(m);
              const pct = progress[m.id]?.percent ?? overallPercent(m);
              const left = progress[m.id]?.leftMs ?? null;
              const label = stageLabel(m);
              const searchable = searchableLabel(m);
              // While renaming, the title field takes the row up to its actions: a title has room to be read whole.
              const editing = renaming === m.id;
              return (
                <tr key={m.id} data-testid="manual-row" data-manual-id={m.id} data-status={m.status} className="align-top">
                  <td className={`px-3 py-3 sm:px-4 ${editing ? '' : 'max-w-xs'}`} colSpan={editing ? 5 : undefined}>
                    {editing ? (
                      <RenameForm initial={m.title} onSubmit={(t) => rename(m, t)} onCancel={() => setRenaming(null)} />
                    ) : m.status === 'ready' ? (
                      <Link href={manualLink(m.id)} className="font-medium text-brand-700 hover:underline dark:text-brand-100" data-testid="manual-link">
                        {m.title}
                      </Link>
                    ) : (
                      <span className="font-medium" data-testid="manual-title">
                        {m.title}
                      </span>
                    )}
                    {/* Narrow screens: the name wraps, anywhere if it must (a nowrap name would widen the table past the screen). */}
                    <div className="text-xs text-zinc-600 wrap-anywhere sm:truncate dark:text-zinc-400" title={m.fileName}>
                      {m.fileName}
                    </div>
                    {/* Narrow screens: pages and size, whose columns are hidden there. */}
                    <div className="text-xs text-zinc-600 tabular-nums sm:hidden dark:text-zinc-400" data-testid="manual-meta">
                      {m.pageCount !== null ? `${m.pageCount} page${m.pageCount === 1 ? '' : 's'} · ` : ''}
                      {formatBytes(m.sizeBytes)}
                    </div>
                    {(m.error || rowError[m.id]) && (
                      <p role="alert" data-testid="manual-error" className="mt-1 text-xs text-red-700 dark:text-red-400">
                        {rowError[m.id] || m.error}
                      </p>
                    )}
                    {m.errorCode === 'password_required' || m.errorCode === 'password_incorrect' ? (
                      <PasswordForm onSubmit={(pw) => retryWithPassword(m, pw)} />
                    ) : null}
                  </td>
                  {!editing && (
                    <>
                      <td className="hidden px-4 py-3 tabular-nums sm:table-cell">
                        {m.pageCount ?? '—'}
                        {m.ocrPages > 0 && <div className="text-xs text-zinc-600 dark:text-zinc-400">{m.ocrPages} scanned</div>}
                      </td>
                      <td className="min-w-28 px-3 py-3 sm:min-w-44 sm:px-4">
                        <span
                          data-testid="manual-status"
                          className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLE[active ? 'active' : m.status]}`}
                        >
                          {m.status === 'queued' || !active ? label : STAGE_LABEL_SHORT}
                        </span>
                        {working && (
                          <div className="mt-2">
                            <div
                              className="h-1.5 w-full overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800"
                              role="progressbar"
                              aria-valuenow={pct}
                              aria-valuemin={0}
                              aria-valuemax={100}
                              aria-label={`${m.title}: ${label}`}
                            >
                              <div className="h-full bg-brand-500 transition-all" style={{ width: `${pct}%` }} />
                            </div>
                            <div className="mt-1 text-xs text-zinc-700 dark:text-zinc-300" data-testid="manual-stage">
                              {label}
                            </div>
                            {searchable && (
                              <div className="text-xs text-emerald-800 dark:text-emerald-300" data-testid="manual-searchable">
                                {searchable}
                              </div>
                            )}
                            <div className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="manual-progress">
                              {m.status === 'queued' ? 'Starts when a slot is free' : `${pct}%`}
                              {left != null && <span data-testid="manual-time-left"> · {formatTimeLeft(left)}</span>}
                            </div>
                          </div>
                        )}
                      </td>
                      <td className="hidden px-4 py-3 tabular-nums sm:table-cell">{formatBytes(m.sizeBytes)}</td>
                      <td className="hidden px-4 py-3 text-zinc-600 md:table-cell dark:text-zinc-400">
                        <time dateTime={new Date(m.createdAt).toISOString()}>{formatDate(m.createdAt)}</time>
                      </td>
                    </>
                  )}
                  <td className="px-2 py-3 text-right sm:px-4">
                    {m.canDelete ? (
                      <span className="inline-flex flex-col items-end gap-0.5 sm:flex-row">
                        <button
                          type="button"
                          data-testid="rename-manual"
                          onClick={() => setRenaming(m.id)}
                          aria-label={`Rename ${m.title}`}
                          className="rounded px-2 py-1 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
                        >
                          Rename
                        </button>
                        <button
                          type="button"
                          data-testid="delete-manual"
                          onClick={() => setConfirming(m)}
                          aria-label={`Delete ${m.title}`}
                          className="rounded px-2 py-1 text-xs text-zinc-600 hover:bg-red-50 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-red-950 dark:hover:text-red-300"
                        >
                          Delete
                        </button>
                      </span>
                    ) : (
                      <span
                        data-testid="manual-locked"
                        title={m.lockedReason ?? undefined}
                        className="inline-block max-w-32 text-left text-xs text-zinc-600 dark:text-zinc-400"
                      >
                        Only its uploader can change it
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={!!confirming}
        title="Delete this manual?"
        message={confirming ? `“${confirming.title}” and all its pages, images and search data will be removed. Chats that cite it keep their text.` : ''}
        confirmLabel="Delete"
        onConfirm={() => confirming && remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </>
  );
}

const STAGE_LABEL_SHORT = 'Processing';

function RenameForm({ initial, onSubmit, onCancel }: { initial: string; onSubmit: (title: string) => void; onCancel: () => void }) {
  const [title, setTitle] = useState(initial);
  return (
    <form
      className="flex w-full flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (title.trim()) onSubmit(title);
      }}
    >
      <input
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        maxLength={160}
        autoFocus
        aria-label="Manual title"
        data-testid="rename-input"
        className="min-w-48 flex-1 basis-full rounded border border-zinc-300 bg-transparent px-2 py-1 text-sm sm:basis-auto dark:border-zinc-700"
      />
      <button type="submit" data-testid="rename-save" className="rounded bg-brand-700 px-2 py-1 text-xs font-medium text-white hover:bg-brand-600">
        Save
      </button>
      <button type="button" onClick={onCancel} className="rounded px-2 py-1 text-xs text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800">
        Cancel
      </button>
    </form>
  );
}

function PasswordForm({ onSubmit }: { onSubmit: (password: string) => void }) {
  const [pw, setPw] = useState('');
  return (
    <form
      className="mt-2 flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (pw) onSubmit(pw);
      }}
    >
      <input
        type="password"
        value={pw}
        onChange={(e) => setPw(e.target.value)}
        placeholder="PDF password"
        aria-label="PDF password"
        data-testid="pdf-password"
        className="w-40 rounded border border-zinc-300 bg-transparent px-2 py-1 text-xs dark:border-zinc-700"
      />
      <button type="submit" className="rounded bg-brand-700 px-2 py-1 text-xs font-medium text-white hover:bg-brand-600">
        Open
      </button>
    </form>
  );
}
