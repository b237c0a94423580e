/**
 * Structure units of a manual: written at the end of its ingest, read by the answer stage page by
 * page (the pages an answer may read from). The rows' `data` holds the kind's own fields (lib/ingest/structure.ts).
 */
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { getDb, inWriteTurn } from './db';
import { units } from './tables';

export type UnitRow = typeof units.$inferSelect;

/** Rows per insert statement and per transaction: a long manual's units are written in steps, each short. */
const BATCH = 200;

/**
 * Replaces a manual's units. The old rows go in the first transaction; each later batch is its
 * own short transaction, so a 2,000-page manual never holds the write lock for long. A failed
 * ingest removes what was written (clearUnits from discardPartialOutput).
 */
export async function replaceUnits(manualId: string, rows: UnitRow[]): Promise<void> {
  const db = await getDb();
  await inWriteTurn(() =>
    db.transaction(async (tx) => {
      await tx.delete(units).where(eq(units.manualId, manualId));
      if (rows.length) await tx.insert(units).values(rows.slice(0, BATCH));
    }),
  );
  for (let i = BATCH; i < rows.length; i += BATCH) {
    await inWriteTurn(() =>
      db.transaction(async (tx) => {
        await tx.insert(units).values(rows.slice(i, i + BATCH));
      }),
    );
  }
}

export async function clearUnits(manualId: string): Promise<void> {
  const db = await getDb();
  await inWriteTurn(() => db.delete(units).where(eq(units.manualId, manualId)));
}

/** The units that cover a page (a table continued from the page before included), in reading order. */
export async function listUnitsOfPage(manualId: string, page: number): Promise<UnitRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(units)
    .where(and(eq(units.manualId, manualId), lte(units.page, page), gte(units.pageEnd, page)))
    .orderBy(asc(units.seq));
}
