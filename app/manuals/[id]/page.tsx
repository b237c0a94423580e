import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { ManualBrowser } from '@/components/manuals/manual-browser';
import { readerOrSignIn } from '@/lib/auth/access';
import { getChunk, getManual, listPages } from '@/lib/store/manuals';
import type { BBox } from '@/lib/providers/types';
import { manualLink } from '@/lib/text/page-links';

export const dynamic = 'force-dynamic';

const searchSchema = z.object({
  page: z.coerce.number().int().positive().optional().catch(undefined),
  hl: z.string().max(200).optional().catch(undefined),
});

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  await readerOrSignIn(manualLink(id));
  const manual = await getManual(id);
  return { title: manual?.title ?? 'Manual' };
}

export default async function ManualPage({ params, searchParams }: Props) {
  const { id } = await params;
  await readerOrSignIn(manualLink(id));
  const manual = await getManual(id);
  if (!manual) notFound();
  const { page, hl } = searchSchema.parse(await searchParams);
  const pages = await listPages(id);
  const pageList = pages.map((p) => ({ number: p.number, width: p.width, height: p.height, ocr: p.ocr }));

  let highlight: { chunkId: string; page: number; heading: string; text: string; bboxes: BBox[] } | null = null;
  if (hl) {
    const chunk = await getChunk(hl);
    if (chunk && chunk.manualId === id) highlight = { chunkId: chunk.id, page: chunk.page, heading: chunk.heading, text: chunk.text, bboxes: chunk.bboxes };
  }
  const current = page ?? highlight?.page;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="min-w-0">
          <Link href="/manuals" className="text-sm text-zinc-500 hover:underline dark:text-zinc-400">
            ← Manuals
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight break-words sm:truncate" data-testid="page-title">
            {manual.title}
          </h1>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {manual.fileName} · {manual.pageCount ?? '?'} pages{manual.ocrPages ? ` · ${manual.ocrPages} scanned, read with OCR` : ''}
          </p>
        </div>
      </div>
      {manual.status !== 'ready' ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          This manual is {manual.status === 'failed' ? `not available: ${manual.error ?? 'processing failed'}` : 'still being processed'}.
        </p>
      ) : pageList.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">This manual has no pages.</p>
      ) : (
        <ManualBrowser
          manualId={id}
          pages={pageList}
          page={current && current <= pageList.length ? current : null}
          highlight={highlight && highlight.page === current ? highlight : null}
        />
      )}
    </div>
  );
}
