'use client';

import { useEffect, useRef, useState } from 'react';
import type { ValueBox } from '@/lib/answer/value-boxes';
import type { BBox } from '@/lib/providers/types';
import { pageImageLink } from '@/lib/text/page-links';

export interface Highlight {
  chunkId: string;
  bboxes: BBox[];
  heading?: string;
  text: string;
  /** Values the answer quotes: boxed strongly, with the lines (`bboxes`) shown faintly around them. */
  values?: Array<ValueBox & { exact?: boolean }>;
}

/** Points of margin around a value box, so the frame does not sit on the glyphs. */
const VALUE_PAD = 1.5;

/** Pixels per point of the stored page image (lib/ingest/render.ts PAGE_SCALE) and of the zoom renders. */
const STORED_SCALE = 1.5;
const ZOOM_SCALES = [3, 4.5];

/** The image that stays sharp at this size: the stored one, or a zoom render when the screen needs more pixels. */
function pageImageUrl(manualId: string, page: number, devicePxPerPt: number): string {
  if (devicePxPerPt <= STORED_SCALE * 1.15) return pageImageLink(manualId, page, 'image');
  const scale = ZOOM_SCALES.find((s) => devicePxPerPt <= s * 1.15) ?? ZOOM_SCALES.at(-1)!;
  return pageImageLink(manualId, page, { zoom: scale });
}

/**
 * A page image with highlight boxes placed in page coordinates (percentages scale with zoom).
 * `pxPerPt` (CSS pixels per PDF point, when known) picks a sharper render for zoomed views; the
 * stored image shows meanwhile. Until the first image arrives the page shows a loading state.
 */
export function PageImage({
  manualId,
  page,
  width,
  height,
  highlight,
  pxPerPt,
}: {
  manualId: string;
  page: number;
  width: number;
  height: number;
  highlight: Highlight | null;
  pxPerPt?: number;
}) {
  const firstBox = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Record<string, boolean>>({});
  const [dpr, setDpr] = useState(1);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the screen's pixel density is only known in the browser
  useEffect(() => setDpr(window.devicePixelRatio || 1), []);
  useEffect(() => {
    if (firstBox.current) reveal(firstBox.current);
  }, [highlight?.chunkId]);
  const baseUrl = pageImageLink(manualId, page, 'image');
  const sharpUrl = pxPerPt ? pageImageUrl(manualId, page, pxPerPt * dpr) : baseUrl;
  const baseLoaded = !!loaded[baseUrl];
  const values = highlight?.values ?? [];
  return (
    <div
      className={`relative w-full shadow ${baseLoaded ? 'bg-white' : 'bg-zinc-100 dark:bg-zinc-900'}`}
      style={{ aspectRatio: `${width} / ${height}` }}
      data-testid="page-frame"
      data-loaded={baseLoaded || loaded[sharpUrl] ? 'true' : 'false'}
    >
      {!baseLoaded && !loaded[sharpUrl] && (
        <>
          {/* The pulse is on the backdrop only: pulsing the words would make them too faint to read. */}
          <div aria-hidden className="absolute inset-0 animate-pulse bg-zinc-200 dark:bg-zinc-800" />
          <p role="status" className="absolute inset-x-0 top-1/3 text-center text-sm text-zinc-800 dark:text-zinc-200" data-testid="page-loading">
            Loading page {page}…
          </p>
        </>
      )}
      {/* eslint-disable-next-line @next/next/no-img-element -- served by our own cached route */}
      <img
        src={baseUrl}
        alt={`Page ${page}`}
        onLoad={() => setLoaded((l) => ({ ...l, [baseUrl]: true }))}
        className={`absolute inset-0 h-full w-full ${baseLoaded ? '' : 'opacity-0'}`}
        data-testid="page-image"
      />
      {sharpUrl !== baseUrl && (
        // eslint-disable-next-line @next/next/no-img-element -- the sharper render for this zoom
        <img
          key={sharpUrl}
          src={sharpUrl}
          alt=""
          onLoad={() => setLoaded((l) => ({ ...l, [sharpUrl]: true }))}
          className={`absolute inset-0 h-full w-full ${loaded[sharpUrl] ? '' : 'opacity-0'}`}
          data-testid="page-image-sharp"
        />
      )}
      {highlight?.bboxes.map((b, i) => (
        <div
          key={i}
          ref={i === 0 && !values.length ? firstBox : undefined}
          data-testid="highlight"
          className={`pointer-events-none absolute rounded-sm mix-blend-multiply ${values.length ? 'bg-yellow-200/30 ring-1 ring-yellow-500/40' : 'bg-yellow-300/40 ring-2 ring-yellow-500/70'}`}
          style={placed(b, width, height)}
        />
      ))}
      {values.map((v, i) => (
        <div
          key={`v${i}`}
          ref={i === 0 ? firstBox : undefined}
          data-testid="highlight-value"
          data-value={v.value}
          data-exact={v.exact ? 'true' : 'false'}
          // The box in page points, for tests and tools: the drawn frame adds a small margin.
          data-box={[v.x, v.y, v.w, v.h].map((n) => n.toFixed(2)).join(',')}
          title={v.value}
          className="pointer-events-none absolute rounded-sm bg-yellow-300/50 ring-2 ring-orange-600 mix-blend-multiply"
          style={placed({ x: v.x - VALUE_PAD, y: v.y - VALUE_PAD, w: v.w + 2 * VALUE_PAD, h: v.h + 2 * VALUE_PAD }, width, height)}
        />
      ))}
    </div>
  );
}

/**
 * Brings a highlight into view: centred in the page's own scroll box, and the window moved only as
 * far as it takes to show it. (scrollIntoView centres it in the window too, which carried a
 * manual's search box and its matches off screen on every match.)
 */
function reveal(box: HTMLElement) {
  const behavior: ScrollBehavior = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
  const scroller = box.closest<HTMLElement>('[data-page-scroller]');
  if (!scroller) return box.scrollIntoView({ block: 'center', inline: 'center', behavior });
  const b = box.getBoundingClientRect();
  const s = scroller.getBoundingClientRect();
  const within = (v: number, max: number) => Math.max(0, Math.min(max, v));
  const top = within(scroller.scrollTop + b.top + b.height / 2 - (s.top + s.height / 2), scroller.scrollHeight - scroller.clientHeight);
  const left = within(scroller.scrollLeft + b.left + b.width / 2 - (s.left + s.width / 2), scroller.scrollWidth - scroller.clientWidth);
  // Where the box ends up in the window once its scroll box has moved.
  const boxTop = b.top - (top - scroller.scrollTop);
  scroller.scrollTo({ top, left, behavior });
  // The window's top is under the sticky header: the document's scroll-padding-top (globals.css).
  const margin = 16;
  const topEdge = (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) + margin;
  const below = boxTop + b.height + margin - window.innerHeight;
  const by = boxTop < topEdge ? boxTop - topEdge : below > 0 ? Math.min(below, boxTop - topEdge) : 0;
  if (by) window.scrollBy({ top: by, behavior });
}

/** A page-coordinate box as percentages of the page, so it scales with the image. */
const placed = (b: BBox, width: number, height: number) => ({
  left: `${(b.x / width) * 100}%`,
  top: `${(b.y / height) * 100}%`,
  width: `${(b.w / width) * 100}%`,
  height: `${(b.h / height) * 100}%`,
});
