import Link from 'next/link';

export function ThumbnailGrid({ manualId, pages }: { manualId: string; pages: Array<{ number: number; width: number; height: number; ocr: boolean }> }) {
  if (pages.length === 0) return <p className="text-sm text-zinc-500 dark:text-zinc-400">This manual has no pages.</p>;
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6" data-testid="thumbnail-grid">
      {pages.map((p) => (
        <li key={p.number}>
          <Link
            href={`/manuals/${manualId}?page=${p.number}`}
            data-testid="page-thumb"
            className="group block rounded-lg border border-zinc-200 p-1.5 hover:border-brand-500 dark:border-zinc-800"
          >
            {/* eslint-disable-next-line @next/next/no-img-element -- served by our own cached route */}
            <img
              src={`/manuals/${manualId}/pages/${p.number}/thumb`}
              alt=""
              loading="lazy"
              width={240}
              height={Math.round((240 * p.height) / p.width)}
              className="h-auto w-full rounded bg-white"
            />
            <span className="mt-1 flex items-center justify-between text-xs text-zinc-600 dark:text-zinc-400">
              <span>Page {p.number}</span>
              {p.ocr && <span className="rounded bg-zinc-100 px-1 dark:bg-zinc-800">OCR</span>}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
