/** Messages between the web server (pool.ts) and a PDF worker process (worker.ts). */
import type { IngestErrorCode } from '../ingest/errors';
import type { BBox } from '../ingest/geometry';
import type { ValueTarget } from '../ingest/word-boxes';

export type PdfJob =
  /** Page count, title, or the password problem of a PDF on disk; refuses decompression bombs. */
  | { kind: 'inspect'; file: string; password?: string; maxPages: number; maxBytes: number }
  /** Renders one page to its PNG and WebP thumbnail files. */
  | { kind: 'render'; file: string; password?: string; page: number; imagePath: string; thumbPath: string }
  /** Renders one page at a zoom scale to a PNG (no thumbnail). */
  | { kind: 'zoom'; file: string; page: number; scale: number; imagePath: string }
  /** Places quoted values on their glyphs on one page (the citation preview's value boxes). */
  | { kind: 'locate'; file: string; password?: string; page: number; targets: ValueTarget[] };

export type InspectResult = { pages: number; title?: string };
export type LocateResult = { boxes: Array<BBox | null> };
export type JobResult = InspectResult | { rendered: true } | LocateResult;

export type WorkerRequest = { id: number; job: PdfJob };
export type WorkerReply =
  | { id: number; ok: true; result: JobResult }
  | { id: number; ok: false; error: { code: IngestErrorCode; message: string; detail?: string; retryable?: boolean } };
