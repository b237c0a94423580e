'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../ui/icons';
import type { Scope } from './use-manual-chat';

export interface ManualOption {
  id: string;
  title: string;
  /** The device the title names ("X-9 controller"): the short label of a one-manual scope. */
  device: string;
  /** Still processing, searchable through some pages already: "Searchable through page 40 of 120 · figure labels pending". */
  searchable?: string | null;
}

/**
 * Which manuals a question searches: all searchable ones (ready, or still processing with ready
 * pages, marked so), or a chosen few. A disclosure (not an ARIA
 * menu: its items are a radio and checkboxes): Tab moves through them, Esc or leaving the panel
 * closes it, Esc returns focus to the button.
 */
export function ScopePicker({
  manuals,
  scope,
  onChange,
  disabled,
}: {
  manuals: ManualOption[];
  scope: Scope;
  onChange: (s: Scope) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpen(false);
      if (root.current?.contains(document.activeElement)) button.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const chosen = scope === 'all' ? null : new Set(scope);
  const label =
    chosen === null
      ? manuals.length === 1
        ? manuals[0].device
        : `All manuals (${manuals.length})`
      : chosen.size === 1
        ? (manuals.find((m) => chosen.has(m.id))?.device ?? '1 manual')
        : `${chosen.size} of ${manuals.length} manuals`;

  const toggle = (id: string) => {
    const next = new Set(chosen ?? manuals.map((m) => m.id));
    if (next.has(id)) next.delete(id);
    else next.add(id);
    if (next.size === 0 || next.size === manuals.length) onChange('all');
    else onChange(manuals.filter((m) => next.has(m.id)).map((m) => m.id));
  };

  return (
    <div
      ref={root}
      className="relative min-w-0"
      onBlur={(e) => {
        // Tabbing out of the panel closes it.
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        data-testid="scope-picker"
        disabled={disabled || manuals.length === 0}
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Search in: ${manuals.length ? label : 'no manual ready'}`}
        title="Which manuals to search"
        className="inline-flex h-8 max-w-full items-center sm:max-w-[240px] gap-1.5 rounded-lg px-2 text-[13px] text-zinc-600 hover:bg-zinc-100 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800"
      >
        <Icon name="book" className="h-3.5 w-3.5" />
        <span className="truncate">{manuals.length ? label : 'No manual ready'}</span>
        <Icon name="chevronDown" className="h-3 w-3 opacity-60" />
      </button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label="Manuals to search"
          data-testid="scope-panel"
          className="absolute bottom-full left-0 z-30 mb-2 w-72 max-w-[calc(100vw-3rem)] overflow-hidden rounded-xl border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <p className="px-2.5 pb-1 pt-1.5 text-[11px] font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Search in</p>
          <label className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
            <input type="radio" checked={chosen === null} onChange={() => onChange('all')} className="accent-brand-600" data-testid="scope-all" />
            All searchable manuals
          </label>
          <div className="my-1 border-t border-zinc-100 dark:border-zinc-800" />
          <div className="max-h-64 overflow-y-auto">
            {manuals.map((m) => (
              <label key={m.id} className="flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
                <input
                  type="checkbox"
                  checked={chosen === null || chosen.has(m.id)}
                  onChange={() => toggle(m.id)}
                  className="accent-brand-600"
                  data-testid="scope-option"
                />
                <span className="min-w-0">
                  <span className="block truncate" title={m.title}>
                    {m.title}
                  </span>
                  {m.searchable && (
                    <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400" data-testid="scope-option-searchable">
                      Processing · {m.searchable}
                    </span>
                  )}
                </span>
              </label>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
