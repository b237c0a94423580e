'use client';

import { Icon } from '../ui/icons';

/**
 * The device the chat is about (lib/agent/device-context.ts), above the input: later questions
 * search its manual until they name another device or the user clears it. A real button clears it,
 * so it works from the keyboard and on a phone.
 */
export function DeviceChip({ device, onClear, disabled }: { device: string; onClear: () => void; disabled?: boolean }) {
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2 text-[12.5px] text-zinc-600 dark:text-zinc-400" data-testid="device-context">
      <span>Searching</span>
      <span
        className="inline-flex max-w-full items-center gap-1 rounded-full border border-brand-100 bg-brand-50 py-0.5 pl-2.5 pr-1 font-medium text-brand-700 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100"
        data-testid="device-chip"
      >
        <span className="truncate">{device}</span>
        <button
          type="button"
          onClick={onClear}
          disabled={disabled}
          aria-label={`Stop searching only ${device}`}
          title="Search every manual again"
          data-testid="device-chip-clear"
          className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50 dark:hover:bg-zinc-700"
        >
          <Icon name="x" className="h-3.5 w-3.5" />
        </button>
      </span>
      <span>named in this chat; ask about another device to switch.</span>
    </div>
  );
}
