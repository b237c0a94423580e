import type { Metadata } from 'next';
import { Library } from '@/components/manuals/library';
import { ProviderSummary } from '@/components/settings/provider-summary';
import { currentOwnerId } from '@/lib/auth/owner';
import { listManualViews } from '@/lib/library';
import { getConfig } from '@/lib/providers/config';

export const metadata: Metadata = { title: 'Manuals' };
export const dynamic = 'force-dynamic';

export default async function ManualsPage() {
  const manuals = await listManualViews(await currentOwnerId());
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="page-title">
          Manuals
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Upload PDFs, watch them being processed, open any page.</p>
      </div>
      <Library initial={manuals} maxBytes={getConfig().upload.maxBytes} />
      <ProviderSummary />
    </div>
  );
}
