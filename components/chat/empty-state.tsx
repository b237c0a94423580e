import Link from 'next/link';
import { Icon } from '../ui/icons';
import type { ManualOption } from './scope-picker';

export interface ProcessingManual {
  title: string;
  stage: string;
  percent: number;
}

/** A new chat: what can be asked (examples from the ready manuals), or why nothing can yet. */
export function EmptyState({
  manuals,
  processing,
  failedCount,
  examples,
  onAsk,
}: {
  manuals: ManualOption[];
  processing: ProcessingManual[];
  failedCount: number;
  examples: string[];
  onAsk: (q: string) => void;
}) {
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center gap-6 px-4 py-12 text-center">
      <div className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 ring-1 ring-brand-100 dark:bg-brand-500/10 dark:text-brand-500 dark:ring-brand-500/20">
        <Icon name="book" className="h-6 w-6" />
      </div>
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl" data-testid="page-title">
          Ask your manuals
        </h1>
        <p className="mx-auto max-w-lg text-[15px] text-zinc-600 dark:text-zinc-400">
          Specs, error codes, wiring and procedures — every answer cites the page it came from, and you can watch how it was found.
        </p>
      </div>

      {manuals.length > 0 ? (
        <div className="w-full space-y-3" data-testid="chat-examples">
          <div className="grid gap-2 sm:grid-cols-2">
            {examples.map((q) => (
              <button
                key={q}
                type="button"
                data-testid="example-question"
                onClick={() => onAsk(q)}
                className="rounded-xl border border-zinc-200 bg-white px-4 py-3 text-left text-sm text-zinc-700 transition-colors hover:border-brand-500/40 hover:bg-brand-50/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-brand-500/5"
              >
                {q}
              </button>
            ))}
          </div>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {manuals.length === 1 ? `Searching “${manuals[0].title}”.` : `Searching ${manuals.length} manuals.`}
            {processing.length > 0 && ` ${processing.length} more ${processing.length === 1 ? 'is' : 'are'} still being processed.`}
          </p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="add-manuals-hint">
            To ask about your own equipment,{' '}
            <Link href="/manuals" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100" data-testid="add-manuals-link">
              add its PDF manuals
            </Link>{' '}
            (scanned ones too).
          </p>
        </div>
      ) : (
        <div
          data-testid="chat-empty-state"
          className="w-full rounded-2xl border border-dashed border-zinc-300 p-8 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
        >
          <p className="mb-1 font-medium text-zinc-800 dark:text-zinc-200">No manual is ready to chat with yet.</p>
          {processing.length > 0 ? (
            <ul className="mb-4 space-y-1" data-testid="processing-manuals">
              {processing.map((m) => (
                <li key={m.title}>
                  “{m.title}”: {m.stage.charAt(0).toLowerCase() + m.stage.slice(1)}
                  {m.percent ? ` (${m.percent}%)` : ''}. You can ask as soon as its first pages are searchable.
                </li>
              ))}
            </ul>
          ) : (
            <p className="mb-4">
              {failedCount > 0 ? 'The uploaded manuals could not be processed. ' : ''}Add your manuals (PDF, scanned ones too) on the Manuals page; each becomes
              searchable in a minute or two.
            </p>
          )}
          <Link
            href="/manuals"
            data-testid="add-manuals-link"
            className="inline-flex items-center rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
          >
            Add manuals
          </Link>
        </div>
      )}
    </div>
  );
}
