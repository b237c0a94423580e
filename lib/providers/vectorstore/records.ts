/** Input checks and small vector helpers shared by every backend. */
import type { BBox, ChunkHit, ChunkRecord, PageHit, PageRecord } from '../types';

function checkText(what: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new Error(`${what} must be a non-empty string`);
  // NUL cannot travel through SQL filters (LanceDB) and is never part of a real id.
  if (value.includes('\0')) throw new Error(`${what} must not contain NUL characters: ${JSON.stringify(value)}`);
  return value;
}

export function checkManualId(id: unknown): string {
  return checkText('manualId', id);
}

function checkPage(page: unknown, where: string): number {
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > 2 ** 31 - 1) {
    throw new Error(`${where}: page must be a 1-based whole number, got ${String(page)}`);
  }
  return page;
}

/** Validated chunks, one per id (the last one wins, as a second upsert would). */
export function prepareChunks(chunks: ChunkRecord[]): ChunkRecord[] {
  const byId = new Map<string, ChunkRecord>();
  for (const c of chunks) {
    checkText('chunk id', c.id);
    checkManualId(c.manualId);
    checkPage(c.page, `chunk ${c.id}`);
    if (!c.vector || typeof c.vector.length !== 'number') throw new Error(`chunk ${c.id} has no vector`);
    byId.delete(c.id); // keep the input order of the winners
    byId.set(c.id, c);
  }
  return [...byId.values()];
}

/** Validated pages, one per (manual, page), bags L2-normalised so that dot product = cosine. */
export function preparePages(pages: PageRecord[]): Array<PageRecord & { vectors: Float32Array[] }> {
  const byKey = new Map<string, PageRecord & { vectors: Float32Array[] }>();
  for (const p of pages) {
    checkManualId(p.manualId);
    checkPage(p.page, `page of ${p.manualId}`);
    const key = `${p.manualId}\0${p.page}`;
    byKey.delete(key);
    byKey.set(key, { ...p, text: p.text ?? '', vectors: (p.vectors ?? []).map(l2normalize) });
  }
  return [...byKey.values()];
}

export function l2normalize(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const out = Float32Array.from(v);
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < out.length; i++) out[i] *= inv;
  }
  return out;
}

export function meanVector(vectors: ArrayLike<number>[], dims: number): Float32Array {
  const out = new Float32Array(dims);
  if (vectors.length === 0) return out;
  for (const v of vectors) for (let i = 0; i < dims; i++) out[i] += v[i];
  for (let i = 0; i < dims; i++) out[i] /= vectors.length;
  return out;
}

function parseBBoxes(json: unknown): BBox[] {
  if (typeof json !== 'string' || json === '') return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as BBox[]) : [];
  } catch {
    return [];
  }
}

/** Best first; equal scores in a stable order so that repeated searches agree. */
/** A chunk hit read back from a stored row (snake_case columns; `id` is the chunk id, stored under another name by some backends). */
export function storedChunkHit(row: Record<string, unknown>, id: unknown, score: number): ChunkHit {
  return {
    id: String(id),
    manualId: String(row.manual_id),
    page: Number(row.page),
    heading: String(row.heading ?? ''),
    text: String(row.text ?? ''),
    ocr: Boolean(row.ocr),
    bboxes: parseBBoxes(row.bboxes),
    score,
  };
}

export function byScore<T extends ChunkHit | PageHit>(a: T, b: T): number {
  if (b.score !== a.score) return b.score - a.score;
  const ka = 'id' in a ? a.id : `${a.manualId}\0${String(a.page).padStart(10, '0')}`;
  const kb = 'id' in b ? (b as ChunkHit).id : `${b.manualId}\0${String(b.page).padStart(10, '0')}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A usable result limit: whole, at least 0, and bounded so one call cannot ask for the world. */
const MAX_LIMIT = 1000;
export function checkLimit(limit: number): number {
  if (!Number.isFinite(limit)) return 10;
  return Math.max(0, Math.min(MAX_LIMIT, Math.floor(limit)));
}
