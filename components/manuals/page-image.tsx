'use client';

import { useEffect, useRef, useState } from 'react';
import type { BBox } from '@/lib/providers/types';

export interface Highlight {
  chunkId: string;
  bboxes: BBox[];
  heading?: string;
  text: string;
}

/** Pixels per point of the stored page image (lib/ingest/render.ts PAGE_SCALE) and of the zoom renders. */
const STORED_SCALE = 1.5;
const ZOOM_SCALES = [3, 4.5];

/** The image that stays sharp at this size: the stored one, or a zoom render when the screen needs more pixels. */
export function pageImageUrl(manualId: string, page: number, devicePxPerPt: number): string {
  const base = `/manuals/${manualId}/pages/${page}`;
  if (devicePxPerPt <= STORED_SCALE * 1.15) return `${base}/image`;
  const scale = ZOOM_SCALES.find((s) => devicePxPerPt <= s * 1.15) ?? ZOOM_SCALES.at(-1)!;
  return `${base}/zoom?scale=${scale}`;
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
    firstBox.current?.scrollIntoView({ block: 'center', inline: 'center', behavior: 'smooth' });
  }, [highlight?.chunkId]);
  const baseUrl = `/manuals/${manualId}/pages/${page}/image`;
  const sharpUrl = pxPerPt ? pageImageUrl(manualId, page, pxPerPt * dpr) : baseUrl;
  const baseLoaded = !!loaded[baseUrl];
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
          ref={i === 0 ? firstBox : undefined}
          data-testid="highlight"
          className="pointer-events-none absolute rounded-sm bg-yellow-300/40 ring-2 ring-yellow-500/70 mix-blend-multiply"
          style={{ left: `${(b.x / width) * 100}%`, top: `${(b.y / height) * 100}%`, width: `${(b.w / width) * 100}%`, height: `${(b.h / height) * 100}%` }}
        />
      ))}
    </div>
  );
}
