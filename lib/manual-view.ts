/** What the browser sees of a manual (no file paths, no password, no owner ids). */
export interface ManualView {
  id: string;
  title: string;
  fileName: string;
  sizeBytes: number;
  pageCount: number | null;
  ocrPages: number;
  status: 'queued' | 'parsing' | 'ocr' | 'rendering' | 'embedding' | 'indexing' | 'ready' | 'failed';
  progressDone: number;
  progressTotal: number;
  error: string | null;
  errorCode: string | null;
  createdAt: number;
  canDelete: boolean;
}

export const STAGES = ['queued', 'parsing', 'ocr', 'rendering', 'embedding', 'indexing', 'ready'] as const;

export const STAGE_LABEL: Record<ManualView['status'], string> = {
  queued: 'Queued',
  parsing: 'Parsing text',
  ocr: 'Reading images (OCR)',
  rendering: 'Rendering pages',
  embedding: 'Embedding',
  indexing: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
};

/** Overall progress 0–100 across stages, with the current stage's own fraction inside its slot. */
export function overallPercent(m: Pick<ManualView, 'status' | 'progressDone' | 'progressTotal'>): number {
  if (m.status === 'ready') return 100;
  if (m.status === 'failed') return 0;
  const slot = STAGES.indexOf(m.status);
  const within = m.progressTotal > 0 ? Math.min(1, m.progressDone / m.progressTotal) : 0;
  return Math.round(((slot + within) / (STAGES.length - 1)) * 100);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
