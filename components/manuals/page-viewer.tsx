'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect } from 'react';
import type { Highlight } from './page-image';
import { ZoomablePage } from './zoomable-page';
import { manualLink, viewerLink } from '@/lib/text/page-links';

/** Full page viewer: the page at its full width first, zoom and rotate, previous/next (buttons and ← →), highlight boxes of a cited passage. */
export function PageViewer({
  manualId,
  pages,
  page,
  highlight,
  noteHighlight = true,
}: {
  manualId: string;
  pages: Array<{ number: number; width: number; height: number }>;
  page: number;
  highlight: Highlight | null;
  /** Quote the highlighted passage above the page (a search match is quoted in its list already). */
  noteHighlight?: boolean;
}) {
  const router = useRouter();
  const info = pages[page - 1];
  const go = useCallback((n: number) => router.push(viewerLink(manualId, n)), [manualId, router]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      // Alt+← is the browser's Back, Ctrl/Cmd with +/- its own zoom: leave those alone.
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft' && page > 1) go(page - 1);
      if (e.key === 'ArrowRight' && page < pages.length) go(page + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, page, pages.length]);

  const btn = 'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-900';
  return (
    <div className="space-y-3" data-testid="page-viewer">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={manualLink(manualId)} className={btn} data-testid="all-pages">
          All pages
        </Link>
        <button type="button" className={btn} onClick={() => go(page - 1)} disabled={page <= 1} aria-label="Previous page" data-testid="prev-page">
          ←
        </button>
        <span className="text-sm tabular-nums" data-testid="page-indicator" aria-live="polite">
          Page {page} / {pages.length}
        </span>
        <button type="button" className={btn} onClick={() => go(page + 1)} disabled={page >= pages.length} aria-label="Next page" data-testid="next-page">
          →
        </button>
      </div>
      {highlight && noteHighlight && (
        <p className="rounded-md bg-yellow-50 px-3 py-2 text-sm text-yellow-900 dark:bg-yellow-950 dark:text-yellow-100" data-testid="highlight-note">
          Highlighted: {highlight.heading ? `${highlight.heading} — ` : ''}
          <span className="italic">
            {highlight.text.slice(0, 160)}
            {highlight.text.length > 160 ? '…' : ''}
          </span>
        </p>
      )}
      <ZoomablePage
        key={page}
        manualId={manualId}
        page={page}
        width={info.width}
        height={info.height}
        highlight={highlight}
        keyboard
        className="h-[calc(100dvh-15rem)] min-h-[420px]"
      />
    </div>
  );
}
