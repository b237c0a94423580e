'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { getPagePreview } from '@/actions/chat';
import { isValueBox, MAX_VALUE_BOXES } from '@/lib/answer/value-boxes';
import type { Highlight } from '@/components/manuals/page-image';
import { ZoomablePage } from '@/components/manuals/zoomable-page';
import type { PagePreview } from '@/lib/chat/service';
import type { CitationTarget } from '@/lib/chat/view';
import { useModalDialog } from '@/components/ui/use-modal-dialog';
import { Icon, Spinner } from '../ui/icons';
import { sourceLabel } from '@/lib/answer/citations';
import { viewerLink as viewerHrefOf } from '@/lib/text/page-links';

type Loaded = { key: string; preview: PagePreview | null; error: string | null };

/**
 * The page a citation points at, in a modal: the page image with the cited passage's boxes
 * highlighted, the passage text, and a link to the full viewer at that page and passage (not on a
 * shared chat: `viewerLink` false, a visitor gets no way into the library).
 */
export function CitationPreview({ target, onClose, viewerLink = true }: { target: CitationTarget | null; onClose: () => void; viewerLink?: boolean }) {
  const dialog = useModalDialog(target !== null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const key = target ? `${target.manualId}:${target.page}:${target.chunkId ?? ''}:${target.ref}` : '';
  // A citation's boxes are its quoted lines, then its quoted values (estimates the server places on their glyphs).
  const lineBoxes = target?.bboxes?.filter((b) => !isValueBox(b)) ?? [];

  useEffect(() => {
    if (!target) return;
    let live = true;
    const values = (target.bboxes ?? []).filter(isValueBox).slice(0, MAX_VALUE_BOXES);
    void getPagePreview({
      manualId: target.manualId,
      page: target.page,
      ...(target.chunkId ? { chunkId: target.chunkId } : {}),
      ...(values.length ? { values } : {}),
    }).then((r) => {
      if (live) setLoaded({ key, preview: r.ok ? r.data : null, error: r.ok ? null : r.message });
    });
    return () => {
      live = false;
    };
  }, [target, key]);

  const current = loaded?.key === key ? loaded : null;
  const preview = current?.preview ?? null;
  // The citation's own boxes are the lines the answer quoted; the page's chunk boxes are the whole passage.
  const values = preview?.values.length ? { values: preview.values } : {};
  const highlight: Highlight | null = preview?.highlight
    ? { ...preview.highlight, ...(lineBoxes.length ? { bboxes: lineBoxes } : {}), ...values }
    : lineBoxes.length
      ? { chunkId: target?.chunkId ?? `ref-${target?.ref}`, bboxes: lineBoxes, heading: target?.heading, text: target?.snippet ?? '', ...values }
      : null;
  const viewerHref = target ? viewerHrefOf(target.manualId, target.page, target.chunkId) : '#';
  const heading = sourceLabel(target?.heading);

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === dialog.current) onClose(); // backdrop click
      }}
      data-testid="page-preview"
      aria-label={target ? `Source ${target.ref}: page ${target.page}` : 'Source preview'}
      className="m-0 h-dvh max-h-none w-screen max-w-none overflow-hidden border-zinc-200 sm:m-auto sm:h-[min(92dvh,1100px)] sm:w-[min(96vw,860px)] sm:rounded-2xl sm:border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl backdrop:bg-zinc-950/50 backdrop:backdrop-blur-[2px] dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {target && (
        <div className="flex h-full flex-col">
          <header className="flex items-start gap-2 border-b border-zinc-200 px-3 py-3 sm:gap-3 sm:px-5 dark:border-zinc-800">
            <span className="mt-0.5 inline-flex h-6 min-w-6 items-center justify-center rounded-md bg-brand-50 px-1.5 font-mono text-xs font-semibold text-brand-700 dark:bg-brand-500/15 dark:text-brand-100">
              {target.ref}
            </span>
            <div className="min-w-0 flex-1">
              <h2 className="truncate font-semibold">{preview?.manualTitle ?? target.manualTitle ?? 'Manual'}</h2>
              <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">
                Page {target.page}
                {heading ? ` · ${heading}` : ''}
              </p>
            </div>
            {viewerLink && (
              <Link
                href={viewerHref}
                data-testid="open-in-viewer"
                className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                {/* Narrow screens: the icon only (the words stay the link's name). */}
                <span className="sr-only sm:not-sr-only">Open in viewer</span> <Icon name="external" className="h-3.5 w-3.5" />
              </Link>
            )}
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
            >
              <Icon name="x" />
            </button>
          </header>
          {target.snippet && (
            <blockquote className="border-b border-zinc-200 bg-amber-50/60 px-3 py-2.5 sm:px-5 text-sm leading-6 text-zinc-700 dark:border-zinc-800 dark:bg-amber-500/5 dark:text-zinc-300">
              <span className="line-clamp-3">{target.snippet}</span>
            </blockquote>
          )}
          <div className="flex min-h-0 flex-1 flex-col bg-zinc-100 p-2 sm:p-3 dark:bg-zinc-950">
            {preview ? (
              // The page's full width on every screen, scrolled to the highlight: no sideways panning on a phone; zoom on demand.
              <ZoomablePage
                key={key}
                manualId={target.manualId}
                page={target.page}
                width={preview.width}
                height={preview.height}
                highlight={highlight}
                className="flex-1"
              />
            ) : current?.error ? (
              <p className="p-8 text-center text-sm text-zinc-700 dark:text-zinc-300">{current.error}</p>
            ) : (
              <div role="status" className="flex h-full items-center justify-center gap-2 text-sm text-zinc-700 dark:text-zinc-300" data-testid="page-loading">
                <Spinner /> Loading page {target.page}…
              </div>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
