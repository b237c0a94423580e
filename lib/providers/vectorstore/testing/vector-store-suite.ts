/**
 * The one behaviour suite every VectorStore backend passes (LanceDB always; Weaviate when a
 * server is available). Vectors are small hand-made ones, so the expected rankings are exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkRecord, PageRecord, VectorStore } from '../../types';
import { VectorDimensionError } from '../errors';

export const SUITE_DIMS = 8;

/** Unit vector along axis i, or a normalised mix of axes with weights. */
export function axis(i: number): Float32Array {
  const v = new Float32Array(SUITE_DIMS);
  v[i] = 1;
  return v;
}
export function mix(...parts: Array<[number, number]>): Float32Array {
  const v = new Float32Array(SUITE_DIMS);
  for (const [i, w] of parts) v[i] += w;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export const HOSTILE_MANUAL = `o'brien "manual"; DROP TABLE chunks; -- \\ ünïcødé 📘`;
const HOSTILE_CHUNK_ID = `it's a "chunk"'); DELETE FROM chunks WHERE ('1'='1`;

const chunk = (id: string, manualId: string, page: number, text: string, vector: Float32Array, extra: Partial<ChunkRecord> = {}): ChunkRecord => ({
  id,
  manualId,
  page,
  heading: `Section of ${id}`,
  text,
  ocr: false,
  bboxes: [{ x: 10, y: 20 + page, w: 100, h: 12 }],
  vector,
  ...extra,
});

export function suiteChunks(): ChunkRecord[] {
  return [
    chunk('a1', 'm-alpha', 1, 'The ACX7210 microcontroller drives the display board.', axis(0)),
    chunk('a2', 'm-alpha', 2, 'Replace the AR3350 voltage regulator if the 3.3V rail is low.', axis(1), { ocr: true, heading: 'Power > Regulators' }),
    chunk('a3', 'm-alpha', 3, 'Error code E42 means the pump motor is overheating.', axis(2)),
    chunk('a4', 'm-alpha', 4, 'Clean the air filter every 200 hours of operation.', axis(3)),
    chunk('b1', 'm-beta', 1, 'Wiring diagram for the ACX7210 programming header.', mix([0, 0.6], [4, 0.8])),
    chunk('b2', 'm-beta', 5, 'Torque specifications for the pump housing bolts.', axis(5)),
    chunk('b3', 'm-beta', 9, 'Menu navigation: press SET to enter configuration.', axis(6)),
    chunk(HOSTILE_CHUNK_ID, HOSTILE_MANUAL, 2, `Quote test: it's "fine" -- Grüße 日本語 DROP TABLE`, axis(7)),
  ];
}

export function suitePages(): PageRecord[] {
  return [
    { manualId: 'm-alpha', page: 1, text: 'ACX7210 display', vectors: [axis(0), axis(1)] },
    { manualId: 'm-alpha', page: 2, text: 'regulator', vectors: [axis(2), axis(3), mix([0, 1], [1, 1])] },
    { manualId: 'm-alpha', page: 3, text: 'error codes', vectors: [mix([2, 1], [5, 1])] },
    { manualId: 'm-beta', page: 1, text: 'wiring diagram', vectors: [axis(4), axis(5)] },
    { manualId: 'm-beta', page: 5, text: 'torque', vectors: [axis(6)] },
    { manualId: HOSTILE_MANUAL, page: 2, text: 'quotes', vectors: [axis(7), mix([0, 1], [7, 1])] },
  ];
}

const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);
const pageKeys = (hits: Array<{ manualId: string; page: number }>) => hits.map((h) => `${h.manualId}#${h.page}`);
const isSortedDesc = (xs: Array<{ score: number }>) => xs.every((h, i) => i === 0 || xs[i - 1].score >= h.score);

export interface SuiteOptions {
  /** A reason to skip the whole suite (shown in the test name), or undefined to run it. */
  skip?: string;
  /** Tear a store down after each test (default: close()). */
  destroy?: (store: VectorStore) => Promise<void>;
  timeoutMs?: number;
}

export function runVectorStoreSuite(name: string, makeStore: () => Promise<VectorStore>, options: SuiteOptions = {}): void {
  const title = options.skip ? `${name} VectorStore suite — skipped: ${options.skip}` : `${name} VectorStore suite`;
  describe.skipIf(!!options.skip)(title, { timeout: options.timeoutMs ?? 30_000 }, () => {
    const open: VectorStore[] = [];
    const fresh = async () => {
      const store = await makeStore();
      open.push(store);
      return store;
    };
    const seeded = async () => {
      const store = await fresh();
      await store.upsertChunks(suiteChunks());
      await store.upsertPages(suitePages());
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await (options.destroy ? options.destroy(store) : store.close());
    });

    it('searches on an empty store return [] and counts are zero', async () => {
      const store = await fresh();
      expect(await store.count()).toEqual({ chunks: 0, pages: 0 });
      expect(await store.denseSearch(axis(0), { limit: 5 })).toEqual([]);
      expect(await store.bm25Search('ACX7210', { limit: 5 })).toEqual([]);
      expect(await store.hybridSearch('ACX7210', axis(0), { limit: 5 })).toEqual([]);
      expect(await store.multiVectorSearch([axis(0)], { limit: 5 })).toEqual([]);
      await store.deleteManual('m-alpha'); // idempotent on nothing
      expect(await store.count({ manualIds: ['m-alpha'] })).toEqual({ chunks: 0, pages: 0 });
    });

    it('upserts and counts, with and without filters', async () => {
      const store = await seeded();
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 });
      expect(await store.count({ manualIds: ['m-alpha'] })).toEqual({ chunks: 4, pages: 3 });
      expect(await store.count({ manualIds: ['m-beta'], pages: { from: 2 } })).toEqual({ chunks: 2, pages: 1 });
      expect(await store.count({ pages: { from: 2, to: 4 } })).toEqual({ chunks: 4, pages: 3 });
      // An empty id list restricts nothing.
      expect(await store.count({ manualIds: [] })).toEqual({ chunks: 8, pages: 6 });
    });

    it('dense search ranks the nearest chunk first and round-trips every field', async () => {
      const store = await seeded();
      const hits = await store.denseSearch(mix([2, 0.9], [3, 0.3]), { limit: 3 });
      expect(ids(hits).slice(0, 2)).toEqual(['a3', 'a4']);
      expect(hits).toHaveLength(3);
      expect(isSortedDesc(hits)).toBe(true);
      expect(hits[0].score).toBeCloseTo(0.9 / Math.hypot(0.9, 0.3), 4);
      const [a2] = await store.denseSearch(axis(1), { limit: 1 });
      expect(a2).toEqual({
        id: 'a2',
        manualId: 'm-alpha',
        page: 2,
        heading: 'Power > Regulators',
        text: 'Replace the AR3350 voltage regulator if the 3.3V rail is low.',
        ocr: true,
        bboxes: [{ x: 10, y: 22, w: 100, h: 12 }],
        score: expect.closeTo(1, 4),
      });
    });

    it('BM25 finds exact tokens such as part numbers', async () => {
      const store = await seeded();
      expect(new Set(ids(await store.bm25Search('ACX7210', { limit: 5 })))).toEqual(new Set(['a1', 'b1']));
      expect(ids(await store.bm25Search('AR3350', { limit: 5 }))).toEqual(['a2']);
      expect(ids(await store.bm25Search('ar3350', { limit: 5 }))).toEqual(['a2']);
      // Extra words that match nothing do not hide the hit (OR semantics).
      expect(ids(await store.bm25Search('which AR3350 zzqxunknownword', { limit: 5 }))[0]).toBe('a2');
      const pump = await store.bm25Search('pump', { limit: 5 });
      expect(new Set(ids(pump))).toEqual(new Set(['a3', 'b2']));
      expect(isSortedDesc(pump)).toBe(true);
      expect(pump.every((h) => h.score > 0)).toBe(true);
      expect(await store.bm25Search('   ', { limit: 5 })).toEqual([]);
    });

    it('hybrid returns the union of both legs, weighted by alpha', async () => {
      const store = await seeded();
      // BM25 points at a2 (AR3350), the vector at a3.
      const both = await store.hybridSearch('AR3350', axis(2), { limit: 5 });
      expect(ids(both)).toContain('a2');
      expect(ids(both)).toContain('a3');
      expect(new Set(ids(both)).size).toBe(both.length);
      expect(isSortedDesc(both)).toBe(true);
      // The default alpha favours the keyword leg; alpha=1 is dense only, alpha=0 keyword only.
      expect(ids(both)[0]).toBe('a2');
      expect(ids(await store.hybridSearch('AR3350', axis(2), { limit: 5, alpha: 1 }))[0]).toBe('a3');
      expect(ids(await store.hybridSearch('AR3350', axis(2), { limit: 5, alpha: 0 }))[0]).toBe('a2');
      const rrf = await store.hybridSearch('AR3350', axis(2), { limit: 5, alpha: 0.5, fusion: 'rrf' });
      expect(ids(rrf).slice(0, 2).sort()).toEqual(['a2', 'a3']);
      expect(await store.hybridSearch('AR3350', axis(2), { limit: 1 })).toHaveLength(1);
      // Filters apply to both legs.
      const filtered = await store.hybridSearch('ACX7210', axis(0), { limit: 5, filter: { manualIds: ['m-beta'] } });
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.every((h) => h.manualId === 'm-beta')).toBe(true);
      expect(ids(filtered)[0]).toBe('b1');
    });

    it('multi-vector search ranks the right page first by MaxSim', async () => {
      const store = await seeded();
      const hits = await store.multiVectorSearch([axis(2), axis(3)], { limit: 3 });
      expect(pageKeys(hits)[0]).toBe('m-alpha#2');
      expect(hits[0].score).toBeCloseTo(2, 3); // both query vectors matched exactly
      expect(isSortedDesc(hits)).toBe(true);
      expect(pageKeys(await store.multiVectorSearch([axis(4)], { limit: 3 }))[0]).toBe('m-beta#1');
      const beta = await store.multiVectorSearch([axis(0)], { limit: 5, filter: { manualIds: ['m-beta'] } });
      expect(beta.every((h) => h.manualId === 'm-beta')).toBe(true);
      const ranged = await store.multiVectorSearch([axis(2)], { limit: 5, filter: { pages: { from: 3 } } });
      expect(pageKeys(ranged)[0]).toBe('m-alpha#3');
      expect(ranged.every((h) => h.page >= 3)).toBe(true);
    });

    it('filters by manual ids and page ranges', async () => {
      const store = await seeded();
      const beta = await store.denseSearch(axis(0), { limit: 10, filter: { manualIds: ['m-beta'] } });
      expect(beta.length).toBe(3);
      expect(ids(beta)[0]).toBe('b1');
      expect(beta.every((h) => h.manualId === 'm-beta')).toBe(true);
      const two = await store.denseSearch(axis(0), { limit: 10, filter: { manualIds: ['m-beta', HOSTILE_MANUAL] } });
      expect(new Set(two.map((h) => h.manualId))).toEqual(new Set(['m-beta', HOSTILE_MANUAL]));
      const ranged = await store.denseSearch(axis(0), { limit: 10, filter: { pages: { from: 2, to: 4 } } });
      expect(ranged.length).toBe(4);
      expect(ranged.every((h) => h.page >= 2 && h.page <= 4)).toBe(true);
      expect(ids(await store.bm25Search('pump', { limit: 5, filter: { pages: { from: 2, to: 4 } } }))).toEqual(['a3']);
      expect(ids(await store.bm25Search('pump', { limit: 5, filter: { manualIds: ['m-beta'], pages: { to: 5 } } }))).toEqual(['b2']);
      expect(await store.bm25Search('pump', { limit: 5, filter: { manualIds: ['no-such-manual'] } })).toEqual([]);
      expect(await store.denseSearch(axis(0), { limit: 5, filter: { pages: { from: 7, to: 3 } } })).toEqual([]);
      expect((await store.denseSearch(axis(0), { limit: 10, filter: { manualIds: [] } })).length).toBe(8);
    });

    it('upsert replaces by id and never duplicates', async () => {
      const store = await seeded();
      await store.upsertChunks(suiteChunks()); // the same batch again
      await store.upsertPages(suitePages());
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 });
      const [first] = suiteChunks();
      await store.upsertChunks([{ ...first, text: 'Now about the LM7805 linear regulator.', vector: axis(3) }]);
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 });
      expect(ids(await store.bm25Search('ACX7210', { limit: 5 }))).toEqual(['b1']);
      expect(ids(await store.bm25Search('LM7805', { limit: 5 }))).toEqual(['a1']);
      const near = await store.denseSearch(axis(3), { limit: 10 });
      expect(ids(near).filter((id) => id === 'a1')).toHaveLength(1);
      expect(ids(near).slice(0, 2).sort()).toEqual(['a1', 'a4']);
      // Duplicate ids within one batch: the last one wins.
      await store.upsertChunks([
        { ...first, text: 'first version ZZTOP1' },
        { ...first, text: 'second version ZZTOP2' },
      ]);
      expect(await store.bm25Search('ZZTOP1', { limit: 5 })).toEqual([]);
      expect(ids(await store.bm25Search('ZZTOP2', { limit: 5 }))).toEqual(['a1']);
      // A page's bag is replaced, not appended to.
      await store.upsertPages([{ manualId: 'm-alpha', page: 1, text: 'menu', vectors: [axis(6)] }]);
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 });
      const menu = await store.multiVectorSearch([axis(6)], { limit: 2 });
      expect(new Set(pageKeys(menu))).toEqual(new Set(['m-alpha#1', 'm-beta#5']));
      const display = await store.multiVectorSearch([axis(1)], { limit: 6 });
      expect(pageKeys(display)[0]).toBe('m-alpha#2'); // alpha#1 no longer holds axis 1
    });

    it('deleteManual removes everything of that manual only', async () => {
      const store = await seeded();
      await store.deleteManual('m-alpha');
      expect(await store.count({ manualIds: ['m-alpha'] })).toEqual({ chunks: 0, pages: 0 });
      expect(await store.count()).toEqual({ chunks: 4, pages: 3 });
      expect(ids(await store.bm25Search('ACX7210', { limit: 5 }))).toEqual(['b1']);
      expect((await store.denseSearch(axis(2), { limit: 10 })).some((h) => h.manualId === 'm-alpha')).toBe(false);
      expect((await store.multiVectorSearch([axis(2)], { limit: 10 })).some((h) => h.manualId === 'm-alpha')).toBe(false);
      await store.deleteManual('m-alpha'); // idempotent
      await store.deleteManual(HOSTILE_MANUAL);
      expect(await store.count()).toEqual({ chunks: 3, pages: 2 });
      expect(await store.count({ manualIds: ['m-beta'] })).toEqual({ chunks: 3, pages: 2 });
    });

    it('rejects vectors of another dimension, naming both sizes', async () => {
      const store = await seeded();
      const wrong = new Float32Array(5).fill(0.2);
      const [first] = suiteChunks();
      const dimsError = (actual: number) =>
        expect.objectContaining({
          name: 'VectorDimensionError',
          expected: SUITE_DIMS,
          actual,
          message: expect.stringMatching(new RegExp(`\\b${SUITE_DIMS}\\b.*\\b${actual}\\b`)),
        });
      await expect(store.upsertChunks([{ ...first, id: 'new', vector: wrong }])).rejects.toEqual(dimsError(5));
      await expect(
        store.upsertChunks([
          { ...first, id: 'mixed', vector: axis(0) },
          { ...first, id: 'mixed2', vector: wrong },
        ]),
      ).rejects.toBeInstanceOf(VectorDimensionError);
      await expect(store.denseSearch(wrong, { limit: 3 })).rejects.toEqual(dimsError(5));
      await expect(store.hybridSearch('pump', wrong, { limit: 3 })).rejects.toBeInstanceOf(VectorDimensionError);
      await expect(store.multiVectorSearch([new Float32Array(12)], { limit: 3 })).rejects.toEqual(dimsError(12));
      await expect(store.upsertPages([{ manualId: 'm-alpha', page: 9, text: '', vectors: [new Float32Array(3)] }])).rejects.toEqual(dimsError(3));
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 }); // nothing half-written
    });

    it('is safe with quotes, SQL-ish text and unicode in ids, filters and queries', async () => {
      const store = await seeded();
      expect(await store.count({ manualIds: [HOSTILE_MANUAL] })).toEqual({ chunks: 1, pages: 1 });
      const hit = await store.denseSearch(axis(7), { limit: 1, filter: { manualIds: [HOSTILE_MANUAL] } });
      expect(hit.map((h) => [h.id, h.manualId])).toEqual([[HOSTILE_CHUNK_ID, HOSTILE_MANUAL]]);
      for (const q of [`'; DROP TABLE chunks; --`, `" OR 1=1 --`, 'a AND OR NOT (', '*', '\\', '%_%', 'text:pump^10', '日本語', '📘']) {
        const hits = await store.bm25Search(q, { limit: 3 });
        expect(Array.isArray(hits)).toBe(true);
      }
      expect(ids(await store.bm25Search('Grüße', { limit: 3 }))).toEqual([HOSTILE_CHUNK_ID]);
      expect(await store.count({ manualIds: [`' OR '1'='1`] })).toEqual({ chunks: 0, pages: 0 });
      await store.deleteManual(`m-alpha' OR manual_id != '`);
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 }); // nothing dropped or deleted
      // Updating the hostile chunk in place works too (its id goes through the upsert key).
      await store.upsertChunks([{ ...suiteChunks()[7], text: 'replaced QQHOSTILE' }]);
      expect(ids(await store.bm25Search('QQHOSTILE', { limit: 3 }))).toEqual([HOSTILE_CHUNK_ID]);
      expect(await store.count()).toEqual({ chunks: 8, pages: 6 });
    });

    it('stores blank pages without making them searchable, and respects limits', async () => {
      const store = await seeded();
      await store.upsertPages([{ manualId: 'm-beta', page: 7, text: '', vectors: [] }]);
      expect((await store.count({ manualIds: ['m-beta'] })).pages).toBe(3);
      const all = await store.multiVectorSearch([axis(0), axis(6)], { limit: 20 });
      expect(pageKeys(all)).not.toContain('m-beta#7');
      expect(await store.denseSearch(axis(0), { limit: 2 })).toHaveLength(2);
      expect(await store.multiVectorSearch([axis(0)], { limit: 2 })).toHaveLength(2);
      expect(await store.bm25Search('the', { limit: 0 })).toEqual([]);
    });
  });
}
