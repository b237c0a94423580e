'use client';

import Link from 'next/link';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { pageImageLink, viewerLink } from '@/lib/text/page-links';

/**
 * The pages of a manual as thumbnails: one Tab stop (roving tabindex), arrow keys inside it
 * (← → previous/next, ↑ ↓ by row, Home/End), Enter opens the page.
 */
export function ThumbnailGrid({ manualId, pages }: { manualId: string; pages: Array<{ number: number; width: number; height: number; ocr: boolean }> }) {
  const hint = useId();
  const [active, setActive] = useState(0);
  const links = useRef<Array<HTMLAnchorElement | null>>([]);

  /** Thumbnails per row as laid out now (the grid's columns change with the screen width). */
  const columns = () => {
    const tops = links.current.map((l) => l?.getBoundingClientRect().top ?? 0);
    const perRow = tops.findIndex((t) => Math.abs(t - tops[0]) > 2);
    return perRow > 0 ? perRow : tops.length;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const last = pages.length - 1;
    const moves: Record<string, () => number> = {
      ArrowLeft: () => active - 1,
      ArrowRight: () => active + 1,
      ArrowUp: () => active - columns(),
      ArrowDown: () => active + columns(),
      Home: () => 0,
      End: () => last,
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    const next = Math.min(last, Math.max(0, move()));
    setActive(next);
    links.current[next]?.focus();
  };

  return (
    <div className="space-y-2">
      <p id={hint} className="text-sm text-zinc-600 dark:text-zinc-400">
        {pages.length} pages. In the grid, arrow keys move between pages and Enter opens one.
      </p>
      <ul
        className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6"
        aria-label="Pages"
        aria-describedby={hint}
        onKeyDown={onKeyDown}
        data-testid="thumbnail-grid"
      >
        {pages.map((p, i) => (
          <li key={p.number}>
            <Link
              ref={(el) => {
                links.current[i] = el;
              }}
              href={viewerLink(manualId, p.number)}
              tabIndex={i === active ? 0 : -1}
              onFocus={() => setActive(i)}
              data-testid="page-thumb"
              className="group block rounded-lg border border-zinc-200 p-1.5 hover:border-brand-500 dark:border-zinc-800"
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- served by our own cached route */}
              <img
                src={pageImageLink(manualId, p.number, 'thumb')}
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
    </div>
  );
}
