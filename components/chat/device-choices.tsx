'use client';

import type { ClosestPage, DeviceChoice } from '@/lib/agent/events';
import { pageThumbUrl, type CitationTarget } from '@/lib/chat/view';
import { ClosestPageCards } from './closest-pages';

/**
 * A `clarify` reply: "Which device?" with the candidate devices as buttons, each with
 * its best page, and below them the closest pages grouped by device. Picking a device sets the
 * chat's device and asks the question again about it. Real buttons: Tab reaches them, Enter or
 * Space picks; on a phone they stack full width with a 44 px target.
 */
export function DeviceChoices({
  choices,
  pages,
  question,
  onPick,
  onOpen,
}: {
  choices: DeviceChoice[];
  pages: ClosestPage[];
  question: string;
  /** Absent on a read-only or earlier turn: the choices are shown, not offered. */
  onPick?: (choice: DeviceChoice) => void;
  onOpen: (target: CitationTarget) => void;
}) {
  if (!choices.length) return null;
  const groupOf = (p: { manualId: string; manualTitle?: string }) => p.manualTitle ?? p.manualId;
  return (
    <div className="space-y-3" data-testid="device-choices">
      <ul role="list" aria-label="Which device?" className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {choices.map((c) => (
          <li key={c.manualId} className="min-w-0">
            <button
              type="button"
              data-testid="device-choice"
              data-manual-id={c.manualId}
              disabled={!onPick}
              onClick={() => onPick?.(c)}
              aria-label={`${c.name}: answer from ${c.manualTitle} (best page ${c.page})`}
              className="flex min-h-11 w-full min-w-0 items-center gap-3 rounded-xl border border-zinc-200 bg-white p-2 text-left transition-colors enabled:hover:border-brand-500/60 enabled:hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-default dark:border-zinc-800 dark:bg-zinc-900 dark:enabled:hover:bg-zinc-800/60"
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- served by our own cached route */}
              <img
                src={pageThumbUrl(c)}
                alt=""
                loading="lazy"
                width={240}
                height={310}
                className="h-16 w-12 shrink-0 rounded border border-zinc-100 bg-white object-cover object-top dark:border-zinc-800"
              />
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-[14px] font-medium text-zinc-900 dark:text-zinc-100" data-testid="device-choice-name">
                  {c.name}
                </span>
                <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">
                  {c.manualTitle} · page {c.page}
                  {c.heading ? ` · ${c.heading}` : ''}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {choices.map((c) => {
        const own = pages.filter((p) => groupOf(p) === groupOf(c));
        if (!own.length) return null;
        return (
          <section key={c.manualId} aria-label={`Closest pages of ${c.name}`} className="space-y-1.5" data-testid="device-pages">
            <h3 className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Closest pages of {c.name}</h3>
            <ClosestPageCards pages={own} question={question} onOpen={onOpen} />
          </section>
        );
      })}
    </div>
  );
}
