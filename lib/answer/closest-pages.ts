/**
 * The closest pages (the `pages` form): when the offline writer declines, the pages its
 * evidence came from, best first, one card each — so the technician reads them instead of getting
 * nothing. A minimal piece the answer writer may replace; it only reshapes the retrieved hits.
 */
import { truncate } from '@/lib/text/format';
import { sourceLabel } from './citations';
import { ofDevice, viewerUrl, type RefHit } from './hits';

/** What a card shows; the same shape as lib/agent/events ClosestPage (that module sits above this one). */
export interface PageCard {
  manualId: string;
  manualTitle?: string;
  page: number;
  heading?: string;
  snippet: string;
  previewUrl: string;
  /** The page's unit that covers most of the question (PDF points from the top-left): the card shows it cropped. */
  region?: { bbox: [number, number, number, number]; kind: string };
}

const MAX_PAGES = 3;
const SNIPPET_CHARS = 200;

/**
 * The best `max` distinct pages of the hits (in the order given: best first), each with the best
 * passage of that page as its snippet (~200 characters), its section heading and the link a
 * citation of it opens (the viewer at the page, the passage highlighted). With `device` (the
 * manuals of the device the turn is about), only that device's pages when there are any: another
 * device's page is no place to look for this one's answer.
 */
export function closestPages(hits: readonly RefHit[], max = MAX_PAGES, device?: readonly string[]): PageCard[] {
  const withText = hits.filter((h) => (h.text ?? '').trim());
  // The turn's device (named, or the chat's): its pages only, when the search found any.
  const own = ofDevice(withText, device);
  return firstOfEachPage(own.length ? own : withText, max).map((h) => {
    const heading = sourceLabel(h.heading);
    return {
      manualId: h.manualId,
      ...(h.manualTitle ? { manualTitle: h.manualTitle } : {}),
      page: h.page,
      ...(heading ? { heading } : {}),
      snippet: truncate((h.text ?? '').replace(/\s+/g, ' ').trim(), SNIPPET_CHARS),
      previewUrl: viewerUrl(h),
    };
  });
}

/** The first `n` distinct pages of the hits, in rank order. */
export function distinctPages(hits: readonly RefHit[], n: number): Array<{ manualId: string; page: number }> {
  return firstOfEachPage(hits, n).map((h) => ({ manualId: h.manualId, page: h.page }));
}

/** The best (first) hit of each of the first `max` distinct pages. */
function firstOfEachPage(hits: readonly RefHit[], max: number): RefHit[] {
  const out: RefHit[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (out.length >= max) break;
    const key = `${h.manualId}#${h.page}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}
