/**
 * Every query about manuals and pages lives here (server-only), so routes, actions and the
 * ingest pipeline share one vocabulary and one place to reason about consistency.
 */
import { and, asc, desc, eq, gt, inArray, ne, notInArray, or } from 'drizzle-orm';
import { getDb, inWriteTurn } from './db';
import { ADMIN_USER_ID } from './users';
import { chunks, manuals, pages } from './tables';

export type Manual = typeof manuals.$inferSelect;
export type PageRow = typeof pages.$inferSelect;
export type ChunkRow = typeof chunks.$inferSelect;

export async function listManuals(): Promise<Manual[]> {
  const db = await getDb();
  return db.select().from(manuals).orderBy(desc(manuals.createdAt));
}

export async function getManual(id: string): Promise<Manual | undefined> {
  const db = await getDb();
  return db.query.manuals.findFirst({ where: eq(manuals.id, id) });
}

export async function findManualBySha(sha256: string): Promise<Manual | undefined> {
  const db = await getDb();
  return db.query.manuals.findFirst({ where: eq(manuals.sha256, sha256) });
}

/** No manual is ownerless: without an uploader (the CLI, the sample) it belongs to the administrator. */
export async function createManual(row: { id: string; title: string; fileName: string; sha256: string; sizeBytes: number; ownerId?: string }) {
  const db = await getDb();
  await db.insert(manuals).values({ ...row, ownerId: row.ownerId ?? ADMIN_USER_ID, status: 'queued', updatedAt: new Date() });
}

export async function updateManual(
  id: string,
  patch: Partial<
    Pick<
      Manual,
      | 'status'
      | 'progressDone'
      | 'progressTotal'
      | 'error'
      | 'errorCode'
      | 'password'
      | 'attempts'
      | 'ocrPages'
      | 'timings'
      | 'pageCount'
      | 'title'
      | 'indexFingerprint'
      | 'searchablePages'
      | 'figureLabels'
      | 'deviceProfile'
    >
  >,
) {
  const db = await getDb();
  await db
    .update(manuals)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(manuals.id, id));
}

/** Sets the title only while it is still `expected` (an automatic title never overwrites a rename). */
export async function replaceTitleIf(id: string, expected: string, title: string): Promise<boolean> {
  const db = await getDb();
  const done = await db
    .update(manuals)
    .set({ title, updatedAt: new Date() })
    .where(and(eq(manuals.id, id), eq(manuals.title, expected)))
    .returning({ id: manuals.id });
  return done.length === 1;
}

export async function deleteManualRow(id: string) {
  const db = await getDb();
  await db.delete(manuals).where(eq(manuals.id, id)); // pages cascade
}

export async function readyManualIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ id: manuals.id }).from(manuals).where(eq(manuals.status, 'ready'));
  return rows.map((r) => r.id);
}

/**
 * Manuals a question may search: the ready ones, and those still processing whose first pages
 * are indexed already (progressive availability: their ready pages only).
 */
export const searchable = () => or(eq(manuals.status, 'ready'), and(ne(manuals.status, 'failed'), gt(manuals.searchablePages, 0)));

export async function searchableManualIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ id: manuals.id }).from(manuals).where(searchable());
  return rows.map((r) => r.id);
}

/** Manuals not ready and not failed: queued or in a processing stage. */
export async function listPendingManuals(): Promise<Manual[]> {
  const db = await getDb();
  return db
    .select()
    .from(manuals)
    .where(notInArray(manuals.status, ['ready', 'failed']))
    .orderBy(desc(manuals.createdAt));
}

/**
 * Replaces all page and chunk rows of a manual in one transaction (never a half-written manual).
 * @internal tests set up a manual's rows with it; ingest writes them a range of pages at a time (indexTextPages).
 */
export async function replacePagesAndChunks(manualId: string, pageRows: Array<Omit<PageRow, 'manualId'>>, chunkRows: ChunkRow[]) {
  const db = await getDb();
  await inWriteTurn(() =>
    db.transaction(async (tx) => {
      await tx.delete(chunks).where(eq(chunks.manualId, manualId));
      await tx.delete(pages).where(eq(pages.manualId, manualId));
      for (let i = 0; i < pageRows.length; i += 100) {
        await tx.insert(pages).values(pageRows.slice(i, i + 100).map((r) => ({ ...r, manualId })));
      }
      for (let i = 0; i < chunkRows.length; i += 100) {
        await tx.insert(chunks).values(chunkRows.slice(i, i + 100));
      }
    }),
  );
}

/**
 * Progressive availability: writes the rows of some pages (replacing any rows those pages had, so
 * a page written again is never duplicated) and moves "searchable through page N" in the same
 * transaction, so a reader never sees the count ahead of the rows. The text pass writes its rows
 * this way as pages are read; the last stage replaces them with the complete ones a range at a time.
 */
export async function indexTextPages(manualId: string, pageRows: Array<Omit<PageRow, 'manualId'>>, chunkRows: ChunkRow[], searchableThrough: number) {
  if (pageRows.length === 0) return;
  const db = await getDb();
  const numbers = pageRows.map((p) => p.number);
  await inWriteTurn(() =>
    db.transaction(async (tx) => {
      await tx.delete(chunks).where(and(eq(chunks.manualId, manualId), inArray(chunks.page, numbers)));
      await tx.delete(pages).where(and(eq(pages.manualId, manualId), inArray(pages.number, numbers)));
      for (let i = 0; i < pageRows.length; i += 100) {
        await tx.insert(pages).values(pageRows.slice(i, i + 100).map((r) => ({ ...r, manualId })));
      }
      for (let i = 0; i < chunkRows.length; i += 100) {
        await tx.insert(chunks).values(chunkRows.slice(i, i + 100));
      }
      await tx.update(manuals).set({ searchablePages: searchableThrough }).where(eq(manuals.id, manualId));
    }),
  );
}

/** Removes a manual's rows; it is searchable through no page until a job writes them again. */
export async function clearPagesAndChunks(manualId: string) {
  const db = await getDb();
  await inWriteTurn(() =>
    db.transaction(async (tx) => {
      await tx.update(manuals).set({ searchablePages: 0 }).where(eq(manuals.id, manualId));
      await tx.delete(chunks).where(eq(chunks.manualId, manualId));
      await tx.delete(pages).where(eq(pages.manualId, manualId));
    }),
  );
}

export async function getChunk(id: string): Promise<ChunkRow | undefined> {
  const db = await getDb();
  return db.query.chunks.findFirst({ where: eq(chunks.id, id) });
}

export async function listPages(manualId: string): Promise<PageRow[]> {
  const db = await getDb();
  return db.select().from(pages).where(eq(pages.manualId, manualId)).orderBy(asc(pages.number));
}

export async function getPage(manualId: string, number: number): Promise<PageRow | undefined> {
  const db = await getDb();
  return db.query.pages.findFirst({ where: and(eq(pages.manualId, manualId), eq(pages.number, number)) });
}

/** The chunks of some pages of a manual (their lines and line boxes), for finding words on those pages. */
export async function listChunksOfPages(manualId: string, pageNumbers: number[]): Promise<Array<Pick<ChunkRow, 'id' | 'page' | 'text' | 'bboxes'>>> {
  if (pageNumbers.length === 0) return [];
  const db = await getDb();
  return db
    .select({ id: chunks.id, page: chunks.page, text: chunks.text, bboxes: chunks.bboxes })
    .from(chunks)
    .where(and(eq(chunks.manualId, manualId), inArray(chunks.page, pageNumbers)));
}
