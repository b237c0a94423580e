import type { Metadata } from 'next';
import { Library } from '@/components/manuals/library';
import { ProviderSummary } from '@/components/settings/provider-summary';
import { PageFrame } from '@/components/ui/page-frame';
import { readerOrSignIn } from '@/lib/auth/access';
import { currentOwnerId } from '@/lib/auth/owner';
import { listManualViews } from '@/lib/manuals/service';
import { getConfig } from '@/lib/config';

export const metadata: Metadata = { title: 'Manuals' };
export const dynamic = 'force-dynamic';

export default async function ManualsPage() {
  await readerOrSignIn('/manuals');
  const manuals = await listManualViews(await currentOwnerId());
  return (
    <PageFrame title="Manuals" description="Upload PDFs, watch them being processed, open any page." width="max-w-6xl">
      <Library initial={manuals} maxBytes={getConfig().upload.maxBytes} />
      <ProviderSummary />
    </PageFrame>
  );
}
