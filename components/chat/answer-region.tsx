'use client';

import { useEffect, useState } from 'react';
import { getPagePreview } from '@/actions/chat';
import type { AnswerRegion } from '@/lib/chat/view';
import type { BBox } from '@/lib/providers/types';
import { pageImageLink } from '@/lib/text/page-links';

/** Points of page kept around the unit, so its frame and first letters are not cut (half a line of body text). */
const PAD = 6;
/** A taller unit (a long table, a whole procedure) is shown as a window this tall around its value, or from its top: about 18 lines of body text, a third of a page. */
const MAX_CROP_HEIGHT = 220;

const KIND_LABEL: Record<string, string> = {
  table: 'table',
  code_list: 'code list',
  labelled_value: 'value',
  paragraph: 'passage',
  figure: 'figure',
  procedure: 'procedure',
};

/** The part of the page the crop shows: the unit's box padded, cut to a window around the value when tall. */
function cropOf(bbox: BBox, value: BBox | null, page: { width: number; height: number }, maxHeight: number, minHeightShare: number): BBox {
  const x0 = Math.max(0, bbox.x - PAD);
  const x1 = Math.min(page.width, bbox.x + bbox.w + PAD);
  let y0 = Math.max(0, bbox.y - PAD);
  let y1 = Math.min(page.height, bbox.y + bbox.h + PAD);
  // A thin unit in a card's box: the page around it, centred on it, fills the box.
  const minHeight = Math.min(page.height, (x1 - x0) * minHeightShare);
  if (y1 - y0 < minHeight) {
    const grow = minHeight - (y1 - y0);
    y0 = Math.max(0, Math.min(page.height - minHeight, y0 - grow / 2));
    y1 = y0 + minHeight;
  }
  if (y1 - y0 > maxHeight) {
    const centre = value ? value.y + value.h / 2 : y0 + maxHeight / 2;
    y0 = Math.max(y0, Math.min(y1 - maxHeight, centre - maxHeight / 2));
    y1 = y0 + maxHeight;
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

const pct = (n: number) => `${(n * 100).toFixed(3)}%`;

/**
 * A region of a page, cropped from the stored page image, with a value framed in it. The page's
 * size (and the value's place on its glyphs, where the text layer has them) comes from the page
 * preview the citations open.
 */
export function PageRegionImage({
  manualId,
  page,
  bbox,
  value,
  maxHeight = MAX_CROP_HEIGHT,
  minHeightShare = 0,
}: {
  manualId: string;
  page: number;
  bbox: BBox;
  value?: BBox | null;
  /** Points of page shown at most (a window around the value, or the unit's top). */
  maxHeight?: number;
  /** Height at least this share of the width, so a thin unit fills a card's box with the page around it. */
  minHeightShare?: number;
}) {
  const [size, setSize] = useState<{ key: string; width: number; height: number; value: BBox | null } | null>(null);
  const key = `${manualId}:${page}:${bbox.x},${bbox.y},${bbox.w},${bbox.h}`;
  const estimate = value ?? null;
  useEffect(() => {
    let live = true;
    const values = estimate && 'value' in estimate ? [estimate as BBox & { value: string }] : [];
    void getPagePreview({ manualId, page, ...(values.length ? { values } : {}) }).then((r) => {
      // The value box on its glyphs where the text layer has them; the reader's estimate otherwise.
      if (live && r.ok) setSize({ key, width: r.data.width, height: r.data.height, value: r.data.values[0] ?? estimate });
    });
    return () => {
      live = false;
    };
  }, [key, manualId, page, estimate]);
  const loaded = size?.key === key ? size : null;
  if (!loaded) return <div className="h-16 w-full animate-pulse bg-zinc-100 dark:bg-zinc-800" role="status" aria-label={`Loading page ${page}`} />;
  const crop = cropOf(bbox, loaded.value, loaded, maxHeight, minHeightShare);
  const frame = loaded.value && clampTo(crop, { x: loaded.value.x - 1.5, y: loaded.value.y - 1.5, w: loaded.value.w + 3, h: loaded.value.h + 3 });
  return (
    // The page image as the box's background, scaled so the crop fills the width: a background
    // never overflows its box, so nothing is laid out (or scrolls) beyond the crop.
    <div
      data-testid="region-crop"
      className="relative w-full bg-white bg-no-repeat"
      style={{
        aspectRatio: `${crop.w} / ${crop.h}`,
        backgroundImage: `url(${pageImageLink(manualId, page, 'image')})`,
        backgroundSize: `${pct(loaded.width / crop.w)} auto`,
        backgroundPosition: `${backgroundOffset(crop.x, loaded.width, crop.w)} ${backgroundOffset(crop.y, loaded.height, crop.h)}`,
      }}
    >
      {frame && (
        <span
          data-testid="region-value"
          aria-hidden
          className="absolute rounded-sm ring-2 ring-amber-500"
          style={{ left: pct((frame.x - crop.x) / crop.w), top: pct((frame.y - crop.y) / crop.h), width: pct(frame.w / crop.w), height: pct(frame.h / crop.h) }}
        />
      )}
    </div>
  );
}

/**
 * A background position that puts page coordinate `at` at the box's edge: CSS places p % of the
 * image at p % of the box, so p = at / (page − crop) (0 when the crop spans the page).
 */
const backgroundOffset = (at: number, pageSize: number, cropSize: number) => (pageSize - cropSize > 0.5 ? pct(at / (pageSize - cropSize)) : '0%');

/** The part of `b` inside `crop` (a value box estimated past the crop's edge stays inside it). */
function clampTo(crop: BBox, b: BBox): BBox | null {
  const x0 = Math.max(crop.x, b.x);
  const y0 = Math.max(crop.y, b.y);
  const x1 = Math.min(crop.x + crop.w, b.x + b.w);
  const y1 = Math.min(crop.y + crop.h, b.y + b.h);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/**
 * The region of the page a stated answer reads, beside it: the technician sees the cell in its
 * table (or the steps, or the label) without opening the page. A click or Enter opens the source
 * at that spot.
 */
export function AnswerRegionCrop({ region, stated = true, onOpen }: { region: AnswerRegion; stated?: boolean; onOpen: (ref: number) => void }) {
  const kind = KIND_LABEL[region.kind] ?? 'passage';
  // A region beside the pages form is where to look, not what was read.
  const label = stated ? `Page ${region.page}: the ${kind} this answer reads` : `Page ${region.page}: the ${kind} to check`;
  return (
    <button
      type="button"
      data-testid="answer-region"
      data-kind={region.kind}
      onClick={() => onOpen(region.ref)}
      aria-label={`${label}. Open the page.`}
      className="group block w-full max-w-xl overflow-hidden rounded-lg border border-zinc-200 bg-white text-left transition-shadow hover:shadow-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <PageRegionImage manualId={region.manualId} page={region.page} bbox={region.bbox} value={region.value} />
      <span className="block border-t border-zinc-200 px-3 py-1.5 text-xs text-zinc-600 group-hover:text-zinc-900 dark:border-zinc-800 dark:text-zinc-400 dark:group-hover:text-zinc-100">
        {label} · open ↗
      </span>
    </button>
  );
}
