/** What the browser sees of a manual (no file paths, no password, no owner ids). */
export interface ManualView {
  id: string;
  title: string;
  /** The device the title names ("X-9 controller"), computed on read by the title parser. */
  device: string;
  fileName: string;
  sizeBytes: number;
  pageCount: number | null;
  /** Pages read with OCR (while parsing: found so far). */
  ocrPages: number;
  status: 'queued' | 'parsing' | 'ocr' | 'rendering' | 'embedding' | 'indexing' | 'ready' | 'failed';
  progressDone: number;
  progressTotal: number;
  error: string | null;
  errorCode: string | null;
  createdAt: number;
  /** The viewer may rename and delete it. */
  canDelete: boolean;
  /** Why the viewer may not change it (null when they may). */
  lockedReason: string | null;
  /** 1-based place in the processing queue (queued manuals only). */
  queuePosition: number | null;
  /** A ready manual being re-embedded for new embedders (still searchable meanwhile): its stage. */
  reembedStage: 'embedding' | 'indexing' | null;
  /** Progressive availability: pages 1..N are searchable while it is still processing. */
  searchablePages: number;
  /** Whether the labels in its figures (OCR) are in the index yet. */
  figureLabels: 'pending' | 'done' | null;
}

const STAGE_LABEL: Record<ManualView['status'], string> = {
  queued: 'Waiting to start',
  parsing: 'Reading pages',
  ocr: 'Reading scanned pages (OCR)',
  rendering: 'Preparing page images',
  embedding: 'Making it searchable',
  indexing: 'Saving the search index',
  ready: 'Ready',
  failed: 'Failed',
};

type Progress = Pick<ManualView, 'status' | 'progressDone' | 'progressTotal' | 'pageCount' | 'ocrPages' | 'queuePosition'> &
  Partial<Pick<ManualView, 'reembedStage'>>;

/** Work under way: an ingest, or the re-embedding of a ready manual. */
export function isBusy(m: Pick<ManualView, 'status'> & Partial<Pick<ManualView, 'reembedStage'>>): boolean {
  return (m.status !== 'ready' && m.status !== 'failed') || !!m.reembedStage;
}

/** A question may search it: ready, or still processing with its first pages indexed (store/manuals.ts `searchable()`). */
export function isSearchable(m: { status: ManualView['status']; searchablePages: number }): boolean {
  return m.status === 'ready' || (m.status !== 'failed' && m.searchablePages > 0);
}

/**
 * Progressive availability in words, for a manual still processing that can be searched already:
 * "Searchable through page 40 of 120 · figure labels pending". Null when it is ready, failed or
 * has no searchable page yet.
 */
export function searchableLabel(m: {
  status: ManualView['status'];
  searchablePages: number;
  pageCount: number | null;
  figureLabels: ManualView['figureLabels'];
}): string | null {
  if (m.status === 'ready' || m.status === 'failed' || m.searchablePages <= 0) return null;
  const through = m.pageCount ? `Searchable through page ${m.searchablePages} of ${m.pageCount}` : `${m.searchablePages} pages searchable`;
  return `${through} · figure labels ${m.figureLabels === 'done' ? 'done' : 'pending'}`;
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** The stage in words, with what it is doing to which pages: "Reading pages (4 scanned: OCR)". */
export function stageLabel(m: Progress): string {
  if (m.status === 'ready' && m.reembedStage) return `Searchable; re-embedding for a new embedder: ${STAGE_LABEL[m.reembedStage].toLowerCase()}`;
  if (m.status === 'queued') return m.queuePosition && m.queuePosition > 1 ? `Waiting: ${ordinal(m.queuePosition)} in line` : 'Waiting to start';
  if (m.status === 'parsing' && m.ocrPages > 0) return `Reading pages (${m.ocrPages} scanned, with OCR)`;
  // The wait for the last recognitions: of scanned pages, or only of labels in figures.
  if (m.status === 'ocr' && m.progressTotal > 0)
    return `${m.ocrPages > 0 ? 'Reading scanned pages' : 'Reading figure labels'} (OCR): ${m.progressTotal - m.progressDone} left`;
  if (m.status === 'ocr' && m.ocrPages === 0) return 'Reading figure labels (OCR)';
  return STAGE_LABEL[m.status];
}

/**
 * Relative cost of each stage per page (reading a text page and drawing its preview = 1), measured
 * on this machine kind: the sample manual (10 text pages, one figure read by OCR) spends 3.4 s
 * reading and drawing, 1.3 s waiting for the figure's OCR, 0.07 s embedding and 0.22 s indexing
 * (offline embedder); drawing a text page's preview, done in `rendering`, is ~0.7 of reading and
 * drawing it (`docs/benchmarks.md`, the quiet run of 2026-11-29). A scanned page needs ~3–4 s of OCR
 * (~8× a text page), and OCR runs inside the reading pass. Embedding is given more than the offline
 * embedder's share: a model embedder costs more.
 */
const COST = { read: 0.3, ocr: 8, rendering: 0.7, embedding: 0.05, indexing: 0.07 };

/**
 * Overall progress 0–100, by pages weighted by what they cost. The reading pass (`parsing`) and
 * the wait for its last recognitions (`ocr`) are one piece of work: the pipeline counts a page as
 * done once it is read and its OCR has finished, and the `ocr` stage goes on counting from there,
 * so the bar neither reaches the end of the pass early nor stands still and leaps after it. A
 * scanned manual's pass counts its scanned pages at their real weight. Embedding and indexing
 * report per batch, so their share moves too.
 */
export function overallPercent(m: Pick<Progress, 'status' | 'progressDone' | 'progressTotal'> & Partial<Progress>): number {
  // A re-embed: its two stages take about the same time (chunk vectors, then page bags and the writes).
  if (m.status === 'ready' && m.reembedStage) {
    const frac = m.progressTotal > 0 ? Math.min(1, m.progressDone / m.progressTotal) : 0;
    return Math.min(99, Math.round((m.reembedStage === 'indexing' ? 50 : 0) + 50 * frac));
  }
  if (m.status === 'ready') return 100;
  if (m.status === 'failed' || m.status === 'queued') return 0;
  const pages = Math.max(1, m.pageCount ?? m.progressTotal ?? 1);
  const frac = m.progressTotal > 0 ? Math.min(1, m.progressDone / m.progressTotal) : 0;
  // Pages of the pass finished: while reading, as counted; while waiting for OCR, all but the
  // recognitions still running.
  const passDone =
    m.status === 'parsing' ? Math.max(0, m.progressDone) : m.status === 'ocr' ? Math.max(0, pages - Math.max(0, m.progressTotal - m.progressDone)) : pages;
  // Scanned pages found so far predict the rest of the manual.
  const readSoFar = m.status === 'parsing' ? Math.max(1, m.progressDone, m.ocrPages ?? 0) : pages;
  const scannedShare = Math.min(1, (m.ocrPages ?? 0) / readSoFar);
  const weights = {
    pass: pages * (COST.read + COST.ocr * scannedShare),
    rendering: pages * COST.rendering,
    embedding: pages * COST.embedding,
    indexing: pages * COST.indexing,
  };
  const total = weights.pass + weights.rendering + weights.embedding + weights.indexing;
  let done = weights.pass * Math.min(1, passDone / pages);
  if (m.status === 'rendering') done += weights.rendering * frac;
  if (m.status === 'embedding') done += weights.rendering + weights.embedding * frac;
  if (m.status === 'indexing') done += weights.rendering + weights.embedding + weights.indexing * frac;
  return Math.min(99, Math.round((done / total) * 100));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One date format everywhere: "23 Nov 2026" (dates in the library, chats and shares). */
export function formatDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** "23 Nov 2026, 14:05" in the same style. */
export function formatDateTime(ms: number): string {
  return `${formatDate(ms)}, ${new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
}
