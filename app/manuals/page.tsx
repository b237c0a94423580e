import type { Metadata } from 'next';
import Link from 'next/link';
import { Library } from '@/components/manuals/library';
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
    <PageFrame
      title="Manuals"
      description={
        <>
          Upload PDFs, watch them being processed, open any page. Which models read and search them:{' '}
          <Link href="/settings" className="underline underline-offset-2" data-testid="providers-link">
            Settings
          </Link>
          .
        </>
      }
      width="max-w-6xl"
    >
      <Library initial={manuals} maxBytes={getConfig().upload.maxBytes} />
    </PageFrame>
  );
}
