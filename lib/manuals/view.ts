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

type Progress = Pick<ManualView, 'status' | 'progressDone' | 'progressTotal' | 'pageCount' | 'ocrPages' | 'queuePosition'> & Partial<Pick<ManualView, 'reembedStage'>>;

/** Work under way: an ingest, or the re-embedding of a ready manual. */
export function isBusy(m: Pick<ManualView, 'status'> & Partial<Pick<ManualView, 'reembedStage'>>): boolean {
  return (m.status !== 'ready' && m.status !== 'failed') || !!m.reembedStage;
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** The stage in words, with what it is doing to which pages: "Reading pages (4 scanned: OCR)". */
export function stageLabel(m: Progress): string {
  if (m.status === 'ready' && m.reembedStage) return `Searchable; re-embedding for a new embedder: ${STAGE_LABEL[m.reembedStage].toLowerCase()}`;
  if (m.status === 'queued') return m.queuePosition && m.queuePosition > 1 ? `Waiting: ${ordinal(m.queuePosition)} in line` : 'Waiting to start';
  if (m.status === 'parsing' && m.ocrPages > 0) return `Reading pages (${m.ocrPages} scanned, with OCR)`;
  if (m.status === 'ocr' && m.progressTotal > 0) return `Reading scanned pages (OCR): ${m.progressTotal - m.progressDone} left`;
  return STAGE_LABEL[m.status];
}

/**
 * Relative cost of each stage per page, measured with `npm run bench` on this machine kind: a
 * text page reads in ~0.25–0.5 s, a scanned page needs ~3–4 s of OCR (~8× a text page, and OCR
 * runs inside the reading pass), images, embedding and indexing take a small share each.
 */
const COST = { read: 1, ocr: 8, rendering: 0.15, embedding: 0.3, indexing: 0.3 };

/**
 * Overall progress 0–100, by pages weighted by what they cost: a scanned manual's reading pass
 * counts its OCR pages at their real weight, so the bar moves with the work instead of sitting
 * still in one stage and jumping in the next.
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
  // While reading, OCR pages found so far predict the rest of the manual.
  const readSoFar = m.status === 'parsing' ? Math.max(1, m.progressDone) : pages;
  const ocrShare = Math.min(1, (m.ocrPages ?? 0) / readSoFar);
  const weights = {
    parsing: pages * (COST.read + COST.ocr * ocrShare),
    ocr: Math.min(pages * ocrShare, 4) * COST.ocr, // the tail still in the OCR workers
    rendering: pages * COST.rendering,
    embedding: pages * COST.embedding,
    indexing: pages * COST.indexing,
  };
  const order = ['parsing', 'ocr', 'rendering', 'embedding', 'indexing'] as const;
  const total = order.reduce((s, k) => s + weights[k], 0);
  let done = 0;
  for (const k of order) {
    if (k === m.status) {
      done += weights[k] * frac;
      break;
    }
    done += weights[k];
  }
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
