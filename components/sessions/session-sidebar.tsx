'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { deleteSession, renameSession } from '@/actions/sessions';
import { Icon } from '@/components/ui/icons';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { SessionSummary } from '@/lib/chat/service';
import { useSessions } from './sessions-context';

function group(updatedAt: number, now: number): string {
  const day = 24 * 3600 * 1000;
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  if (updatedAt >= startOfToday) return 'Today';
  if (updatedAt >= startOfToday - day) return 'Yesterday';
  if (updatedAt >= startOfToday - 7 * day) return 'Previous 7 days';
  return 'Older';
}

/**
 * The owner's chats: open, rename (inline), delete (confirmed). `onClose` is set when it is shown
 * as the small-screen drawer, which then gets a close button.
 */
export function SessionSidebar({ className = '', onNavigate, onClose }: { className?: string; onNavigate?: () => void; onClose?: () => void }) {
  const { sessions, upsert, remove } = useSessions();
  const pathname = usePathname();
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<SessionSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now] = useState(() => Date.now());

  const activeId = pathname.startsWith('/chat/') ? decodeURIComponent(pathname.slice('/chat/'.length)) : null;

  const doRename = async (s: SessionSummary, title: string) => {
    setEditing(null);
    const clean = title.trim();
    if (!clean || clean === s.title) return;
    upsert({ ...s, title: clean });
    const r = await renameSession({ sessionId: s.id, title: clean });
    if (!r.ok) {
      upsert(s);
      setError(r.message);
    }
  };

  const doDelete = async (s: SessionSummary) => {
    setConfirming(null);
    const r = await deleteSession({ sessionId: s.id });
    if (!r.ok) return setError(r.message);
    remove(s.id);
    if (activeId === s.id) {
      onNavigate?.();
      router.push('/');
    }
  };

  const groups: Array<[string, SessionSummary[]]> = [];
  for (const s of sessions) {
    const g = group(s.updatedAt, now);
    const last = groups.at(-1);
    if (last?.[0] === g) last[1].push(s);
    else groups.push([g, [s]]);
  }

  return (
    <aside
      aria-label="Chats"
      data-testid="session-sidebar"
      className={`shrink-0 flex-col border-r border-zinc-200 bg-zinc-50/60 dark:border-zinc-800 dark:bg-zinc-900/40 ${className}`}
    >
      <div className="flex items-center gap-2 p-3">
        <Link
          href="/"
          data-testid="new-chat"
          onClick={onNavigate}
          className="flex h-9 flex-1 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-3 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          <Icon name="plus" className="h-4 w-4" />
          New chat
        </Link>
        {onClose && (
          <button
            type="button"
            onClick={onClose}
            aria-label="Close chats"
            data-testid="close-sidebar"
            className="rounded-md p-2 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800 dark:text-zinc-400"
          >
            <Icon name="x" />
          </button>
        )}
      </div>
      <nav aria-label="Chat history" className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {sessions.length === 0 && <p className="px-3 py-2 text-[13px] text-zinc-500 dark:text-zinc-400">Your chats appear here.</p>}
        {groups.map(([label, list]) => (
          <div key={label} className="mb-3">
            <p className="px-3 pb-1 pt-2 text-[11px] font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{label}</p>
            <ul className="space-y-px">
              {list.map((s) => (
                <li key={s.id} data-testid="session-item" data-session-id={s.id} className="group relative">
                  {editing === s.id ? (
                    <input
                      autoFocus
                      defaultValue={s.title}
                      maxLength={120}
                      aria-label="Chat title"
                      data-testid="session-title-input"
                      onBlur={(e) => void doRename(s, e.currentTarget.value)}
                      onKeyDown={(e) => {
                        if (e.key !== 'Enter' && e.key !== 'Escape') return;
                        // Esc cancels the rename only (not the drawer around it); focus goes back to the chat's link.
                        e.preventDefault();
                        const item = e.currentTarget.closest('li');
                        if (e.key === 'Enter') void doRename(s, e.currentTarget.value);
                        else setEditing(null);
                        requestAnimationFrame(() => item?.querySelector<HTMLElement>('[data-testid="session-link"]')?.focus());
                      }}
                      className="h-8 w-full rounded-md border border-brand-500 bg-white px-2.5 text-[13px] dark:bg-zinc-900"
                    />
                  ) : (
                    <>
                      <Link
                        href={`/chat/${s.id}`}
                        data-testid="session-link"
                        onClick={onNavigate}
                        aria-current={activeId === s.id ? 'page' : undefined}
                        title={s.title}
                        className={`block truncate rounded-md py-1.5 pl-3 pr-14 text-[13px] ${
                          activeId === s.id
                            ? 'bg-zinc-200/70 font-medium text-zinc-900 dark:bg-zinc-800 dark:text-white'
                            : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800/60'
                        }`}
                      >
                        {s.title}
                      </Link>
                      {/* Always rendered (so focus can come back to them from the confirm dialog); shown on hover or
                          focus, and always where there is no hover (touch screens). */}
                      <div className="absolute inset-y-0 right-1 flex items-center gap-0.5 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100">
                        <button
                          type="button"
                          data-testid="session-rename"
                          onClick={() => setEditing(s.id)}
                          aria-label={`Rename “${s.title}”`}
                          className="rounded p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-800 dark:hover:bg-zinc-700 dark:hover:text-zinc-100 dark:text-zinc-400"
                        >
                          <Icon name="pencil" className="h-3.5 w-3.5" />
                        </button>
                        <button
                          type="button"
                          data-testid="session-delete"
                          onClick={() => setConfirming(s)}
                          aria-label={`Delete “${s.title}”`}
                          className="rounded p-1 text-zinc-500 hover:bg-zinc-200 hover:text-red-700 dark:hover:bg-zinc-700 dark:hover:text-red-400 dark:text-zinc-400"
                        >
                          <Icon name="trash" className="h-3.5 w-3.5" />
                        </button>
                      </div>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
        {error && (
          <p role="alert" className="px-3 text-[13px] text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </nav>
      <ConfirmDialog
        open={confirming !== null}
        title="Delete this chat?"
        message={`“${confirming?.title ?? ''}” and its answers will be deleted, and any share link to it stops working.`}
        confirmLabel="Delete"
        onConfirm={() => confirming && void doDelete(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </aside>
  );
}
