/**
 * Progressive availability figures, from the ingest's own timings (lib/ingest/pipeline.ts
 * records `first_searchable` and `text_searchable`, ms from the job's start):
 *   - time_to_first_searchable_ms: from the upload's start (acceptUpload included) to the first page
 *     being searchable; the slowest of the files;
 *   - time_to_searchable_pages_per_s: pages ÷ time until every text page was searchable;
 *   - complete_pages_per_s: pages ÷ time until ready (figure labels, images and vectors included).
 */
export interface AvailabilityFigures {
  time_to_first_searchable_ms: number | null;
  time_to_searchable_pages_per_s: number | null;
  complete_pages_per_s: number | null;
}

interface Ingested {
  pages: number;
  /** Upload start to ready. */
  ms: number;
  timings?: Record<string, number>;
  error?: string;
}

const perSecond = (pages: number, ms: number) => (pages && ms ? Math.round((pages * 100_000) / ms) / 100 : null);

export function availabilityOf(files: readonly Ingested[]): AvailabilityFigures {
  const ok = files.filter((f) => !f.error && f.timings?.first_searchable !== undefined && f.timings.text_searchable !== undefined && f.timings.total !== undefined);
  // The upload's own part (streaming it to disk, reading its page count) comes before the job.
  const before = (f: Ingested) => Math.max(0, f.ms - f.timings!.total);
  const pages = ok.reduce((n, f) => n + f.pages, 0);
  return {
    time_to_first_searchable_ms: ok.length ? Math.max(...ok.map((f) => before(f) + f.timings!.first_searchable)) : null,
    time_to_searchable_pages_per_s: perSecond(pages, ok.reduce((n, f) => n + before(f) + f.timings!.text_searchable, 0)),
    complete_pages_per_s: perSecond(pages, ok.reduce((n, f) => n + f.ms, 0)),
  };
}
