/**
 * What the lexical ranking reads: the searchable manuals (ready, or processing with their first
 * pages indexed) with their pages and chunks, straight from
 * the state store (lib/ranking builds its in-memory index from these rows).
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { searchable } from './manuals';
import { getDb } from './db';
import { chunks, manuals, pages } from './tables';
import type { StoredDeviceProfile } from './schema';

/**
 * Searchable manuals and their version: the key of a cached index. A ready manual's version is
 * when it last changed; a processing one's is how many pages are searchable (its progress ticks
 * touch updatedAt many times a second and must not rebuild the index).
 */
export async function searchableManualVersions(): Promise<
  Array<{ id: string; title: string; fileName: string; version: number; profile: StoredDeviceProfile | null }>
> {
  const db = await getDb();
  const rows = await db
    .select({
      id: manuals.id,
      title: manuals.title,
      fileName: manuals.fileName,
      deviceProfile: manuals.deviceProfile,
      status: manuals.status,
      searchablePages: manuals.searchablePages,
      updatedAt: manuals.updatedAt,
      createdAt: manuals.createdAt,
    })
    .from(manuals)
    .where(searchable())
    .orderBy(asc(manuals.createdAt), asc(manuals.id));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    fileName: r.fileName,
    profile: r.deviceProfile ?? null,
    version: r.status === 'ready' ? ((r.updatedAt ?? r.createdAt)?.getTime() ?? 0) : -r.searchablePages,
  }));
}

/** Stores a manual's device profile; the manual's version (updated_at) stays, so the library index is not rebuilt for it. */
export async function saveDeviceProfile(manualId: string, profile: StoredDeviceProfile): Promise<void> {
  const db = await getDb();
  await db.update(manuals).set({ deviceProfile: profile }).where(eq(manuals.id, manualId));
}

/** Pages (number + text) and chunks of these manuals. */
export async function readCorpusRows(manualIds: string[]) {
  if (manualIds.length === 0) return { pages: [], chunks: [] };
  const db = await getDb();
  const [pageRows, chunkRows] = await Promise.all([
    db.select({ manualId: pages.manualId, number: pages.number, text: pages.text }).from(pages).where(inArray(pages.manualId, manualIds)),
    db
      .select({
        id: chunks.id,
        manualId: chunks.manualId,
        page: chunks.page,
        heading: chunks.heading,
        text: chunks.text,
        ocr: chunks.ocr,
        bboxes: chunks.bboxes,
      })
      .from(chunks)
      .where(inArray(chunks.manualId, manualIds))
      .orderBy(asc(chunks.manualId), asc(chunks.page), asc(chunks.id)),
  ]);
  return { pages: pageRows, chunks: chunkRows };
}
