import { describe, expect, it } from 'vitest';
import { type OcrPair, pagesRatio, roundOf, summarize } from './ocr-ratio';

const pair = (pipelineMs: number, engineMs: number, pages = 10): OcrPair => ({
  file: 'a.pdf',
  pages,
  pipeline_ms: pipelineMs,
  from_upload_ms: pipelineMs + 1000,
  engine_pages: pages,
  engine_ms: engineMs,
  ratio: pagesRatio(pages, pipelineMs, pages, engineMs),
});

describe('the interleaved OCR ratio', () => {
  it('is the engine time over the pipeline time when both read the same pages', () => {
    expect(pagesRatio(20, 25_000, 20, 20_000)).toBe(0.8);
    expect(pagesRatio(0, 1, 1, 1)).toBeNull();
  });

  it('sums a round over its pairs, so a long file weighs more than a short one', () => {
    const r = roundOf(1, { start: 2, end: 3 }, [pair(10_000, 9_000, 20), pair(3_000, 1_000, 3)], true);
    expect(r.ratio).toBe(0.77);
    expect(r.ratio_from_upload).toBe(0.67);
    expect(r.load_avg_1m).toEqual({ start: 2, end: 3 });
  });

  it('gives no ratio for a round where a file failed', () => {
    expect(roundOf(2, { start: 1, end: 1 }, [pair(10_000, 9_000)], false).ratio).toBeNull();
  });

  it('reports the median of the rounds with their spread', () => {
    expect(summarize([0.9, null, 0.7, 0.8])).toEqual({ median: 0.8, min: 0.7, max: 0.9, rounds: 3 });
    expect(summarize([0.9, 0.7, 0.8, 1])).toEqual({ median: 0.85, min: 0.7, max: 1, rounds: 4 });
    expect(summarize([null])).toEqual({ median: null, min: null, max: null, rounds: 0 });
  });
});
