/**
 * The OCR ratio of `npm run bench`, timed so the machine's load cancels: in each round the
 * pipeline reads a scanned manual and the bare engine reads the same pages right after it (file A
 * through the pipeline, file A through the engine, then file B…), so both halves of a pair see
 * nearly the same load. Each round gives a ratio; the median of the rounds is the figure and their
 * minimum and maximum its spread.
 */
import type { LoadSpan } from './load';

export interface OcrPair {
  file: string;
  /** Scanned pages the pipeline read. */
  pages: number;
  /** Claim → ready. */
  pipeline_ms: number;
  /** Upload start → ready. */
  from_upload_ms: number;
  /** Pages the bare engine read (the same pages, drawn beforehand) and its wall time. */
  engine_pages: number;
  engine_ms: number;
  /** Pipeline pages/s ÷ engine pages/s for this pair. */
  ratio: number | null;
}

export interface OcrRound {
  round: number;
  load_avg_1m: LoadSpan;
  pairs: OcrPair[];
  /** Over the round's pairs: Σ pipeline pages/s ÷ Σ engine pages/s (null if a file failed). */
  ratio: number | null;
  ratio_from_upload: number | null;
}

export interface RatioSummary {
  median: number | null;
  min: number | null;
  max: number | null;
  rounds: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Pipeline pages/s ÷ engine pages/s, from totals (null when either side has nothing). */
export function pagesRatio(pages: number, ms: number, enginePages: number, engineMs: number): number | null {
  if (!pages || !ms || !enginePages || !engineMs) return null;
  return round2(pages / ms / (enginePages / engineMs));
}

/** A round's ratios from its pairs; null when any pair is missing its pipeline figure. */
export function roundOf(round: number, load: LoadSpan, pairs: OcrPair[], complete: boolean): OcrRound {
  const sum = (f: (p: OcrPair) => number) => pairs.reduce((n, p) => n + f(p), 0);
  const pages = sum((p) => p.pages);
  const enginePages = sum((p) => p.engine_pages);
  const engineMs = sum((p) => p.engine_ms);
  return {
    round,
    load_avg_1m: load,
    pairs,
    ratio: complete ? pagesRatio(pages, sum((p) => p.pipeline_ms), enginePages, engineMs) : null,
    ratio_from_upload: complete ? pagesRatio(pages, sum((p) => p.from_upload_ms), enginePages, engineMs) : null,
  };
}

/** Median (the mean of the middle two for an even count), minimum and maximum of the known values. */
export function summarize(values: Array<number | null>): RatioSummary {
  const xs = values.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (!xs.length) return { median: null, min: null, max: null, rounds: 0 };
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
  return { median: round2(median), min: xs[0], max: xs.at(-1)!, rounds: xs.length };
}
