import { describe, expect, it } from 'vitest';
import { availabilityOf } from './availability';

describe('availabilityOf', () => {
  it('counts the upload before the job, takes the slowest first page and pools the rates', () => {
    const a = { pages: 100, ms: 12_000, timings: { first_searchable: 400, text_searchable: 5_000, total: 11_000 } };
    const b = { pages: 20, ms: 3_000, timings: { first_searchable: 900, text_searchable: 1_500, total: 2_500 } };
    expect(availabilityOf([a, b])).toEqual({
      // b: 500 ms of upload, then 900 ms to its first page.
      time_to_first_searchable_ms: 1_400,
      // 120 pages in (1,000 + 5,000) + (500 + 1,500) ms.
      time_to_searchable_pages_per_s: 15,
      complete_pages_per_s: 8,
    });
  });

  it('has no figures for a failed ingest or one without the timings', () => {
    expect(availabilityOf([{ pages: 10, ms: 1000, error: 'bad' }, { pages: 10, ms: 1000 }])).toEqual({
      time_to_first_searchable_ms: null,
      time_to_searchable_pages_per_s: null,
      complete_pages_per_s: null,
    });
  });
});
