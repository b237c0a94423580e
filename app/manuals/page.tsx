import type { Metadata } from 'next';
import { ProviderSummary } from '@/components/providers/provider-summary';

export const metadata: Metadata = { title: 'Manuals' };
export const dynamic = 'force-dynamic';

export default function ManualsPage() {
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="page-title">
          Manuals
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Your library of equipment manuals.</p>
      </div>
      <div
        data-testid="manuals-empty-state"
        className="rounded-xl border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
      >
        <p className="font-medium text-zinc-800 dark:text-zinc-200">No manuals yet</p>
        <p>Uploaded manuals will appear here with their pages and processing progress.</p>
      </div>
      <ProviderSummary />
    </div>
  );
}
