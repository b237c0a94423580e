import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb, inWriteTurn } from './db';
import { createManual, getManual, indexTextPages } from './manuals';
import { manuals } from './tables';

delete process.env.DATABASE_URL;
afterAll(closeDb);

describe("one process's write transactions on SQLite", () => {
  it('take turns: one held open does not make the next wait out the lock and fail', async () => {
    await createManual({ id: 'hx', title: 'Acme HX-200 Manual', fileName: 'hx-200.pdf', sha256: 'a'.repeat(64), sizeBytes: 1 });
    const db = await getDb();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    // The first holds its transaction open across an await, as the pipeline's do between writes.
    const first = inWriteTurn(() =>
      db.transaction(async (tx) => {
        await tx.update(manuals).set({ title: 'first' }).where(eq(manuals.id, 'hx'));
        order.push('first writes');
        await held;
        order.push('first commits');
      }),
    );
    // The second (another manual's text pass in the same worker) starts meanwhile.
    const second = indexTextPages(
      'hx',
      [{ number: 1, width: 612, height: 792, text: 'Supply voltage 24 V DC', ocr: false, ocrText: null, imagePath: null, thumbPath: null }],
      [],
      1,
    ).then(() => order.push('second writes'));
    await expect.poll(() => order.length).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first writes', 'first commits', 'second writes']);
    expect((await getManual('hx'))?.searchablePages).toBe(1);
  });
});
