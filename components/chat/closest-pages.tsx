'use client';

import { useId, useState } from 'react';
import type { AnswerMode, ClosestPage } from '@/lib/agent/events';
import { closestPageTarget, markQuestionWords, pageThumbUrl, type CitationTarget } from '@/lib/chat/view';
import { Icon } from '../ui/icons';
import { PageRegionImage } from './answer-region';

/** A desktop card's image box is about this tall for its width: a crop at least this tall fills it. */
const CARD_HEIGHT_SHARE = 0.6;
const boxOf = ([x0, y0, x1, y1]: [number, number, number, number]) => ({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 });

/**
 * The sentence of a `pages` or `not_covered` reply: a muted notice, not an answer
 * paragraph, so nobody reads it as a stated value. Plain text: nothing in it is markdown.
 */
export function FormNotice({ mode, text }: { mode: Exclude<AnswerMode, 'answer'>; text: string }) {
  return (
    <p
      data-testid="form-notice"
      data-mode={mode}
      className="flex items-start gap-2.5 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2.5 text-[14px] leading-6 text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900/60 dark:text-zinc-300"
    >
      <Icon name={mode === 'pages' ? 'search' : 'book'} className="mt-1 h-4 w-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
      <span className="min-w-0 break-words">{text}</span>
    </p>
  );
}

/**
 * The closest pages as cards: thumbnail, manual, page, section and a snippet with the question's
 * words marked. Each card is a button (Tab reaches it, Enter or Space opens it) that opens the page
 * preview a citation opens; closing the preview puts focus back on the card. Phones: one card per
 * row, full width; wider screens: up to three side by side.
 */
export function ClosestPageCards({ pages, question, onOpen }: { pages: ClosestPage[]; question: string; onOpen: (target: CitationTarget) => void }) {
  if (!pages.length) return null;
  return (
    <ul data-testid="closest-pages" aria-label="Closest pages" className="grid grid-cols-1 gap-2 sm:grid-cols-3">
      {pages.map((p, i) => (
        <li key={`${p.manualId}#${p.page}`} className="min-w-0">
          <button
            type="button"
            data-testid="page-card"
            data-manual-id={p.manualId}
            data-page={p.page}
            onClick={() => onOpen(closestPageTarget(p, i))}
            aria-label={`Open ${p.manualTitle ?? 'Manual'}, page ${p.page}${p.heading ? ` — ${p.heading}` : ''}`}
            className="flex h-full w-full min-w-0 gap-3 rounded-xl border border-zinc-200 bg-white p-2 text-left transition-colors hover:border-brand-500/60 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 sm:flex-col sm:gap-2 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800/60"
          >
            {p.region ? (
              // The part of the page that covers the question most, rather than the whole page shrunk.
              <span
                data-testid="page-card-region"
                data-kind={p.region.kind}
                className="block h-24 w-[4.5rem] shrink-0 overflow-hidden rounded border border-zinc-100 bg-white sm:h-32 sm:w-full dark:border-zinc-800"
              >
                <PageRegionImage manualId={p.manualId} page={p.page} bbox={boxOf(p.region.bbox)} maxHeight={160} minHeightShare={CARD_HEIGHT_SHARE} />
              </span>
            ) : (
              // eslint-disable-next-line @next/next/no-img-element -- served by our own cached route
              <img
                src={pageThumbUrl(p)}
                alt=""
                loading="lazy"
                width={240}
                height={310}
                data-testid="page-card-thumb"
                className="h-24 w-[4.5rem] shrink-0 rounded border border-zinc-100 bg-white object-cover object-top sm:h-32 sm:w-full dark:border-zinc-800"
              />
            )}
            <span className="flex min-w-0 flex-1 flex-col gap-0.5">
              <span className="truncate text-[13px] font-medium text-zinc-900 dark:text-zinc-100" data-testid="page-card-title">
                {p.manualTitle ?? 'Manual'}
              </span>
              <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">
                <span data-testid="page-card-page">Page {p.page}</span>
                {p.heading ? <span data-testid="page-card-heading">{` · ${p.heading}`}</span> : null}
              </span>
              <span data-testid="page-card-snippet" className="mt-1 line-clamp-4 break-words text-xs leading-5 text-zinc-700 dark:text-zinc-300">
                {markQuestionWords(p.snippet, question).map((run, j) =>
                  run.mark ? (
                    <mark key={j} className="rounded-sm bg-amber-100 px-0.5 text-inherit dark:bg-amber-500/25">
                      {run.text}
                    </mark>
                  ) : (
                    run.text
                  ),
                )}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** `not_covered` with pages: the cards stay folded behind a button (they do not answer the question). */
export function RevealClosestPages(props: { pages: ClosestPage[]; question: string; onOpen: (target: CitationTarget) => void }) {
  const [shown, setShown] = useState(false);
  const id = useId();
  if (!props.pages.length) return null;
  return (
    <div className="space-y-2">
      <button
        type="button"
        data-testid="show-closest-pages"
        aria-expanded={shown}
        aria-controls={id}
        onClick={() => setShown((s) => !s)}
        className="inline-flex items-center gap-1 rounded-md border border-zinc-200 px-2.5 py-1 text-[13px] text-zinc-700 hover:bg-zinc-50 dark:border-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-900"
      >
        <Icon name={shown ? 'chevronDown' : 'chevronRight'} className="h-3.5 w-3.5" />
        {shown ? 'Hide the closest pages' : 'Show the closest pages'}
      </button>
      <div id={id} hidden={!shown}>
        {shown && <ClosestPageCards {...props} />}
      </div>
    </div>
  );
}
