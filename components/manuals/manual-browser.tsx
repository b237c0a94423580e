'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { getPagePreview } from '@/actions/chat';
import { findInManualAction } from '@/actions/manuals';
import type { FindMatch, FindResult } from '@/lib/manuals/find';
import { Icon, Spinner } from '../ui/icons';
import type { Highlight } from './page-image';
import { PageViewer } from './page-viewer';
import { ThumbnailGrid } from './thumbnail-grid';
import { viewerLink } from '@/lib/text/page-links';

type PageInfo = { number: number; width: number; height: number; ocr: boolean };

/**
 * One manual, browsed: find words and numbers across its pages (matches listed with
 * their page and snippet, walked with next/previous or Enter / Shift+Enter, the selected one
 * highlighted on its page like a citation), go to a page by number, and either the page viewer
 * (`page` set) or the thumbnail grid. Search state lives here, so it survives moving between pages.
 */
export function ManualBrowser({ manualId, pages, page, highlight }: { manualId: string; pages: PageInfo[]; page: number | null; highlight: Highlight | null }) {
  const router = useRouter();
  const ids = useId();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<FindResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  // Exact glyph boxes of selected matches, placed from the PDF's text layer (as for a citation's values).
  const [exact, setExact] = useState<Record<string, FindMatch['box']>>({});
  const [target, setTarget] = useState('');
  const [targetError, setTargetError] = useState<string | null>(null);

  const open = (n: number) => router.push(viewerLink(manualId, n), { scroll: false });

  const select = (found: FindResult, i: number) => {
    const m = found.matches[i];
    setSelected(i);
    if (m.page !== page) open(m.page);
    const key = `${found.query}:${i}`;
    if (m.box && !(key in exact)) {
      void getPagePreview({ manualId, page: m.page, values: [m.box] }).then((r) => {
        const v = r.ok ? r.data.values[0] : undefined;
        if (v?.exact) setExact((e) => ({ ...e, [key]: { x: v.x, y: v.y, w: v.w, h: v.h, value: v.value } }));
      });
    }
  };

  const step = (by: 1 | -1) => {
    if (!result?.matches.length) return;
    const n = result.matches.length;
    select(result, selected === null ? (by > 0 ? 0 : n - 1) : (selected + by + n) % n);
  };

  const search = async (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (!q) {
      setError('Type a word or number to search for.');
      return;
    }
    // Enter again on the same words walks to the next match.
    if (result && result.query === q) return step(1);
    setBusy(true);
    setError(null);
    const r = await findInManualAction({ manualId, query: q });
    setBusy(false);
    if (!r.ok) {
      setError(r.message);
      setResult(null);
      return;
    }
    setResult(r.data);
    setSelected(null);
    if (r.data.matches.length) select(r.data, 0);
  };

  const goTo = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(target.trim());
    if (!/^\d+$/.test(target.trim()) || n < 1 || n > pages.length) {
      setTargetError(`Enter a page number from 1 to ${pages.length}.`);
      return;
    }
    setTargetError(null);
    router.push(viewerLink(manualId, n));
  };

  const match = result && selected !== null ? result.matches[selected] : null;
  const box = match ? (exact[`${result!.query}:${selected}`] ?? match.box) : undefined;
  const found: Highlight | null =
    match && match.page === page && (match.line || box)
      ? {
          chunkId: `find:${result!.query}:${selected}`,
          heading: `Search “${result!.query}”`,
          text: `${match.before}${match.match}${match.after}`,
          bboxes: match.line ? [match.line] : [],
          ...(box ? { values: [{ ...box, exact: box !== match.box }] } : {}),
        }
      : null;

  const status = busy
    ? 'Searching…'
    : error
      ? error
      : !result
        ? ''
        : result.total === 0
          ? `No matches for “${result.query}”`
          : `${selected === null ? 0 : selected + 1} of ${result.total}${result.total > result.matches.length ? ` (first ${result.matches.length} listed)` : ''}`;

  const btn =
    'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-zinc-300 px-2.5 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-900';
  const input =
    'h-9 rounded-md border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3" data-testid="manual-find">
        {/* Minimum widths make the rows wrap on a phone (go to page below, the box below its label) instead of squeezing the box to nothing. */}
        <form role="search" aria-label="Manual search" onSubmit={search} className="flex min-w-[min(100%,20rem)] flex-1 flex-wrap items-center gap-2">
          <label htmlFor={`${ids}-q`} className="text-sm font-medium">
            Search this manual
          </label>
          <div className="flex min-w-[min(100%,15rem)] flex-1 items-center gap-1">
            <input
              id={`${ids}-q`}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && e.shiftKey) {
                  e.preventDefault();
                  if (result && result.query === query.trim()) step(-1);
                }
              }}
              maxLength={100}
              placeholder="Words or a value, e.g. 24 V"
              aria-describedby={`${ids}-status`}
              className={`${input} w-full min-w-0 sm:w-64 sm:flex-none`}
              data-testid="find-input"
            />
            <button type="submit" className={btn} aria-label="Search" data-testid="find-submit">
              {busy ? <Spinner /> : <Icon name="search" className="h-4 w-4" />}
            </button>
            <button
              type="button"
              className={btn}
              onClick={() => step(-1)}
              disabled={!result?.matches.length}
              aria-label="Previous match"
              data-testid="find-prev"
            >
              ↑
            </button>
            <button type="button" className={btn} onClick={() => step(1)} disabled={!result?.matches.length} aria-label="Next match" data-testid="find-next">
              ↓
            </button>
          </div>
          <p id={`${ids}-status`} className="w-full text-sm text-zinc-700 tabular-nums dark:text-zinc-300" aria-live="polite" data-testid="find-status">
            {status}
          </p>
        </form>
        <form onSubmit={goTo} noValidate className="flex flex-wrap items-center gap-2">
          <label htmlFor={`${ids}-page`} className="text-sm font-medium">
            Go to page
          </label>
          <input
            id={`${ids}-page`}
            type="number"
            inputMode="numeric"
            min={1}
            max={pages.length}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            aria-invalid={targetError ? true : undefined}
            aria-describedby={targetError ? `${ids}-page-error` : undefined}
            className={`${input} w-20`}
            data-testid="goto-page"
          />
          <button type="submit" className={btn} data-testid="goto-submit">
            Go
          </button>
          <span className="text-sm text-zinc-600 dark:text-zinc-400">of {pages.length}</span>
          {targetError && (
            <p id={`${ids}-page-error`} role="alert" className="w-full text-sm text-red-700 dark:text-red-400" data-testid="goto-error">
              {targetError}
            </p>
          )}
        </form>
      </div>
      {result && result.matches.length > 0 && (
        // Shorter on a phone, so the search box, the list and the match on its page fit one screen.
        <ol
          className="max-h-32 sm:max-h-48 space-y-0.5 overflow-auto rounded-lg border border-zinc-200 p-1 dark:border-zinc-800"
          aria-label={`Matches for “${result.query}”`}
          data-testid="find-results"
        >
          {result.matches.map((m, i) => (
            <li key={i}>
              <button
                type="button"
                onClick={() => select(result, i)}
                aria-current={i === selected ? 'true' : undefined}
                className={`flex w-full gap-2 rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-900 ${i === selected ? 'bg-brand-50 dark:bg-brand-500/15' : ''}`}
                data-testid="find-result"
                data-page={m.page}
              >
                <span className="w-12 shrink-0 text-zinc-600 tabular-nums dark:text-zinc-400">p. {m.page}</span>
                <span className="min-w-0 break-words">
                  {m.before}
                  <mark className="rounded-sm bg-yellow-200 px-0.5 text-zinc-900">{m.match}</mark>
                  {m.after}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {page !== null ? (
        <PageViewer manualId={manualId} pages={pages} page={page} highlight={found ?? highlight} noteHighlight={!found} />
      ) : (
        <ThumbnailGrid manualId={manualId} pages={pages} />
      )}
    </div>
  );
}
