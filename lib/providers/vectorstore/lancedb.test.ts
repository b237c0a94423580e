import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { scratchDir } from '@/test/scratch';
import { maxSim } from '../multivector/maxsim';
import type { ChunkRecord, PageRecord } from '../types';
import { axis, suiteChunks, suitePages, runVectorStoreSuite } from './testing/vector-store-suite';
import { VectorDimensionError } from './errors';
import { LanceStore, openLanceStore, type LanceStoreOptions } from './lancedb';
import { l2normalize } from './records';

const root = scratchDir('mc-lance-');
let n = 0;
const tempDir = () => path.join(root, `db-${++n}`);

runVectorStoreSuite('LanceDB', () => openLanceStore(tempDir()));

/** Deterministic pseudo-random unit vectors. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9;
    s ^= s >>> 12;
    return ((s >>> 0) / 2 ** 32) * 2 - 1;
  };
}
const randomUnit = (r: () => number, dims: number) => l2normalize(Array.from({ length: dims }, r));

async function indices(store: LanceStore, table: string) {
  // Reach the table through a second connection, as another process would.
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(store.dir);
  const t = await db.openTable(table);
  const list = await t.listIndices();
  t.close();
  db.close();
  return list;
}

describe('LanceStore specifics', () => {
  it('creates the FTS and scalar indexes up front; new rows are searchable before optimize folds them in', async () => {
    const store = await openLanceStore(tempDir(), { optimizeIdleMs: 60_000 });
    await store.upsertChunks(suiteChunks());
    await store.upsertPages(suitePages());
    // Small writes leave their rows unindexed (flat-searched) until writes go quiet.
    expect((await indices(store, 'chunks')).find((i) => i.indexType === 'FTS')?.numUnindexedRows).toBe(8);
    expect((await store.bm25Search('AR3350', { limit: 3 })).map((h) => h.id)).toEqual(['a2']);
    await store.optimize();
    const chunkIdx = await indices(store, 'chunks');
    expect(chunkIdx.map((i) => [i.columns[0], i.indexType]).sort()).toEqual([
      ['id', 'BTree'],
      ['manual_id', 'Bitmap'],
      ['page', 'BTree'],
      ['text', 'FTS'],
    ]);
    expect(chunkIdx.every((i) => i.numUnindexedRows === 0)).toBe(true);
    expect((await indices(store, 'pages')).map((i) => i.columns[0]).sort()).toEqual(['manual_id', 'page']);
    // A chunk added after the index was built is found by BM25 right away.
    await store.upsertChunks([{ ...suiteChunks()[0], id: 'late', text: 'Late arrival: the TPS54331 buck converter.' }]);
    expect((await store.bm25Search('TPS54331', { limit: 3 })).map((h) => h.id)).toEqual(['late']);
    await store.close();
  });

  it('optimizes on the spot past the unindexed-row threshold, and in the background once writes go quiet', async () => {
    const store = await openLanceStore(tempDir(), { optimizeUnindexedRows: { chunks: 5 }, optimizeIdleMs: 100 });
    await store.upsertChunks(suiteChunks().slice(0, 6)); // 6 ≥ 5: folded in by this write
    expect((await indices(store, 'chunks')).every((i) => i.numUnindexedRows === 0)).toBe(true);
    await store.upsertChunks(suiteChunks().slice(6)); // 2 < 5: left for the idle optimize
    expect((await indices(store, 'chunks')).find((i) => i.indexType === 'FTS')?.numUnindexedRows).toBe(2);
    // The idle optimize runs on its own: poll for its effect instead of guessing how long it takes.
    await vi.waitFor(async () => expect((await indices(store, 'chunks')).every((i) => i.numUnindexedRows === 0)).toBe(true), { timeout: 20_000, interval: 50 });
    await store.close();
  });

  it('close() finishes pending index maintenance (a CLI exits right after writing)', async () => {
    const store = await openLanceStore(tempDir(), { optimizeIdleMs: 60_000 });
    await store.upsertChunks(suiteChunks());
    await store.upsertPages(suitePages());
    await store.close();
    expect((await indices(store, 'chunks')).every((i) => i.numUnindexedRows === 0)).toBe(true);
    expect((await indices(store, 'pages')).every((i) => i.numUnindexedRows === 0)).toBe(true);
  });

  it('builds a vector index once the table passes the threshold, and still finds exact neighbours', async () => {
    const dims = 16;
    const r = rng(7);
    const chunks: ChunkRecord[] = Array.from({ length: 300 }, (_, i) => ({
      id: `c${i}`,
      manualId: `m${i % 3}`,
      page: 1 + (i % 40),
      heading: '',
      text: `chunk number ${i}`,
      ocr: false,
      bboxes: [],
      vector: randomUnit(r, dims),
    }));
    const store = await openLanceStore(tempDir(), { vectorIndexMinRows: 256 });
    await store.upsertChunks(chunks.slice(0, 200));
    await store.optimize();
    expect((await indices(store, 'chunks')).some((i) => i.columns.includes('vector'))).toBe(false);
    await store.upsertChunks(chunks.slice(200));
    await store.optimize();
    const vectorIdx = (await indices(store, 'chunks')).find((i) => i.columns.includes('vector'));
    expect(vectorIdx?.indexType).toMatch(/IVF_?FLAT/i);
    const [hit] = await store.denseSearch(chunks[123].vector, { limit: 1 });
    expect(hit.id).toBe('c123');
    expect(hit.score).toBeGreaterThan(0.95);
    await store.close();
  }, 60_000);

  it('a filter naming every manual gives the unfiltered results, and still excludes a manual written later', async () => {
    const store = await openLanceStore(tempDir(), { optimizeIdleMs: 60_000 });
    await store.upsertChunks(suiteChunks());
    const everyManual = [...new Set(suiteChunks().map((c) => c.manualId))];
    const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);
    const scoped = () => store.hybridSearch('ACX7210', axis(0), { limit: 5, filter: { manualIds: everyManual } });
    expect(ids(await scoped())).toEqual(ids(await store.hybridSearch('ACX7210', axis(0), { limit: 5 })));
    expect(ids(await store.denseSearch(axis(0), { limit: 3, filter: { manualIds: everyManual } }))).toEqual(
      ids(await store.denseSearch(axis(0), { limit: 3 })),
    );
    // A manual being ingested (not in the scope yet) has the best match; the scope must keep it out.
    await store.upsertChunks([{ ...suiteChunks()[0], id: 'new-1', manualId: 'm-new', text: 'ACX7210 ACX7210 pinout' }]);
    expect(ids(await store.denseSearch(axis(0), { limit: 10, filter: { manualIds: everyManual } }))).not.toContain('new-1');
    expect(ids(await scoped())).not.toContain('new-1');
    expect(ids(await store.bm25Search('pinout', { limit: 3 }))).toEqual(['new-1']);
    expect(await store.bm25Search('pinout', { limit: 3, filter: { manualIds: everyManual } })).toEqual([]);
    await store.close();
  });

  describe('the IVF index past the threshold', () => {
    // Clustered unit vectors (like passages of a library), 60 manuals × 5 pages.
    const dims = 32;
    const r = rng(23);
    const centres = Array.from({ length: 40 }, () => randomUnit(r, dims));
    const chunkAt = (i: number): ChunkRecord => {
      const c = centres[i % centres.length];
      return {
        id: `c${i}`,
        manualId: `m${i % 60}`,
        page: 1 + (Math.floor(i / 60) % 5),
        heading: '',
        text: `chunk ${i}`,
        ocr: false,
        bboxes: [],
        vector: l2normalize(Array.from(c, (x) => x + 0.35 * r())),
      };
    };
    const all = Array.from({ length: 6000 }, (_, i) => chunkAt(i));
    const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, k) => s + x * b[k], 0);
    const exact = (rows: ChunkRecord[], q: Float32Array, k: number) =>
      rows
        .map((c) => ({ id: c.id, s: dot(c.vector, q) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, k)
        .map((x) => x.id);
    const vectorIndex = async (store: LanceStore) => (await indices(store, 'chunks')).filter((i) => i.columns.includes('vector'));
    // 30 rows a partition: 100 partitions at 3,000 rows, 20 of them probed per query.
    const opts: LanceStoreOptions = { vectorIndexMinRows: 2000, ivfRowsPerPartition: 30 };

    it('is IVF_FLAT on dot products, sized to the table, retrained once the table doubles; recall@10 ≥ 0.95', async () => {
      const store = await openLanceStore(tempDir(), opts);
      await store.upsertChunks(all.slice(0, 3000));
      await store.optimize();
      let [idx] = await vectorIndex(store);
      expect(idx).toMatchObject({ name: 'vector_ivf_flat_dot_p100', indexDetails: { metric_type: 'DOT' } });
      expect(idx.indexType).toMatch(/IVF_?FLAT/i);

      const queries = Array.from({ length: 30 }, (_, i) => l2normalize(Array.from(centres[i % centres.length], (x) => x + 0.5 * r())));
      let found = 0;
      for (const q of queries) {
        const hits = await store.denseSearch(q, { limit: 10 });
        const want = exact(all.slice(0, 3000), q, 10);
        found += hits.filter((h) => want.includes(h.id)).length;
        // Scores stay cosines.
        expect(hits[0].score).toBeCloseTo(dot(all[Number(hits[0].id.slice(1))].vector, q), 4);
      }
      expect(found / (10 * queries.length)).toBeGreaterThanOrEqual(0.95);

      // Grown past twice the rows it was trained for: retrained with more partitions, the old index dropped.
      await store.upsertChunks(all.slice(3000));
      await store.optimize();
      const after = await vectorIndex(store);
      expect(after.map((i) => i.name)).toEqual(['vector_ivf_flat_dot_p200']);
      idx = after[0];
      expect(idx.numUnindexedRows).toBe(0);
      const [hit] = await store.denseSearch(all[4321].vector, { limit: 1 });
      expect(hit).toMatchObject({ id: 'c4321' });
      expect(hit.score).toBeCloseTo(1, 4);
      await store.close();
    }, 120_000);

    it('a filtered search returns every matching row however few (one manual, one page), exactly ranked', async () => {
      const store = await openLanceStore(tempDir(), opts);
      await store.upsertChunks(all.slice(0, 3000));
      await store.optimize();
      expect(await vectorIndex(store)).toHaveLength(1);
      const q = all[17].vector;
      // Manual m17 has 50 chunks spread over many partitions; 20 probed partitions would miss most.
      const manual = all.slice(0, 3000).filter((c) => c.manualId === 'm17');
      const hits = await store.denseSearch(q, { limit: 100, filter: { manualIds: ['m17'] } });
      expect(hits.map((h) => h.id).sort()).toEqual(manual.map((c) => c.id).sort());
      const top = await store.denseSearch(q, { limit: 10, filter: { manualIds: ['m17'] } });
      expect(top.map((h) => h.id)).toEqual(exact(manual, q, 10));
      const page = manual.filter((c) => c.page === 3);
      const onPage = await store.denseSearch(q, { limit: 5, filter: { manualIds: ['m17'], pages: { from: 3, to: 3 } } });
      expect(onPage.map((h) => h.id)).toEqual(exact(page, q, 5));
      expect(await store.denseSearch(q, { limit: 5, filter: { manualIds: ['nope'] } })).toEqual([]);
      // A broad filter (half the manuals) goes through the index, probing twice the partitions.
      const half = Array.from({ length: 30 }, (_, i) => `m${i * 2}`);
      const broad = await store.denseSearch(q, { limit: 10, filter: { manualIds: half } });
      const want = exact(
        all.slice(0, 3000).filter((c) => half.includes(c.manualId)),
        q,
        10,
      );
      expect(broad.filter((h) => want.includes(h.id)).length).toBeGreaterThanOrEqual(9);
      await store.close();
    }, 120_000);
  });

  it('two-stage MaxSim equals brute force when every page is a candidate', async () => {
    const dims = 12;
    const r = rng(11);
    const pages: PageRecord[] = Array.from({ length: 60 }, (_, i) => ({
      manualId: `m${i % 4}`,
      page: 1 + i,
      text: '',
      vectors: Array.from({ length: 1 + (i % 7) }, () => randomUnit(r, dims)),
    }));
    const query = Array.from({ length: 4 }, () => randomUnit(r, dims));
    const expected = pages
      .map((p) => ({ key: `${p.manualId}#${p.page}`, score: maxSim(query, p.vectors) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const store = await openLanceStore(tempDir(), { multiVectorCandidates: 100 });
    await store.upsertPages(pages);
    const hits = await store.multiVectorSearch(query, { limit: 10 });
    expect(hits.map((h) => `${h.manualId}#${h.page}`)).toEqual(expected.map((e) => e.key));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].score, 4));
    await store.close();
  });

  it('the centroid stage keeps a page that matches the query as a whole', async () => {
    // 40 distractor pages each match one query vector strongly; the target matches all of them.
    const dims = 12;
    const q = [axis(0), axis(1), axis(2)].map((v) => l2normalize([...v, 0, 0, 0, 0]));
    const pages: PageRecord[] = Array.from({ length: 40 }, (_, i) => ({
      manualId: 'm',
      page: i + 1,
      text: '',
      vectors: [q[i % 3], l2normalize(Array.from({ length: dims }, (_, k) => (k === 3 + (i % 9) ? 1 : 0)))],
    }));
    pages.push({ manualId: 'm', page: 99, text: '', vectors: q });
    const store = await openLanceStore(tempDir(), { multiVectorCandidates: 5 });
    await store.upsertPages(pages);
    const [top] = await store.multiVectorSearch(q, { limit: 1 });
    expect(top).toMatchObject({ manualId: 'm', page: 99 });
    expect(top.score).toBeCloseTo(3, 4);
    await store.close();
  });

  it('persists across reopen and refuses another dimension at open', async () => {
    const dir = tempDir();
    const first = await openLanceStore(dir);
    await first.upsertChunks(suiteChunks());
    await first.upsertPages(suitePages());
    await first.close();
    const again = await openLanceStore(dir, { dimensions: 8 });
    expect(await again.count()).toEqual({ chunks: 8, pages: 6 });
    expect((await again.bm25Search('AR3350', { limit: 1 }))[0].id).toBe('a2');
    await again.close();
    await expect(openLanceStore(dir, { dimensions: 384 } satisfies LanceStoreOptions)).rejects.toBeInstanceOf(VectorDimensionError);
    await expect(openLanceStore(dir, { multiVectorDimensions: 128 })).rejects.toThrow(/8-dimensional.*128-dimensional/);
  });

  it('a configured dimension is enforced before any table exists', async () => {
    const store = await openLanceStore(tempDir(), { dimensions: 4 });
    await expect(store.denseSearch(axis(0), { limit: 1 })).rejects.toBeInstanceOf(VectorDimensionError);
    await expect(store.upsertChunks(suiteChunks())).rejects.toThrow(/4-dimensional.*8-dimensional/);
    await store.close();
  });

  it('serialises concurrent writes without losing rows', async () => {
    const store = await openLanceStore(tempDir());
    const base = suiteChunks()[0];
    await Promise.all(
      Array.from({ length: 6 }, (_, b) => store.upsertChunks(Array.from({ length: 20 }, (_, i) => ({ ...base, id: `b${b}-${i}`, manualId: `m${b}` })))),
    );
    await Promise.all([store.deleteManual('m0'), store.upsertPages(suitePages()), store.deleteManual('m1')]);
    expect(await store.count()).toEqual({ chunks: 80, pages: 6 });
    await store.close();
  });

  it('a second process sees writes after the consistency interval', async () => {
    const dir = tempDir();
    const writer = await openLanceStore(dir);
    const reader = await openLanceStore(dir, { readConsistencySeconds: 0 });
    await writer.upsertChunks(suiteChunks().slice(0, 2));
    expect((await reader.count()).chunks).toBe(2);
    await writer.upsertChunks(suiteChunks().slice(2));
    expect((await reader.count()).chunks).toBe(8);
    expect((await reader.bm25Search('E42', { limit: 1 }))[0]?.id).toBe('a3');
    await Promise.all([writer.close(), reader.close()]);
  });

  it('rejects bad input clearly and refuses use after close', async () => {
    const store = await openLanceStore(tempDir());
    const base = suiteChunks()[0];
    await expect(store.upsertChunks([{ ...base, id: '' }])).rejects.toThrow(/chunk id/);
    await expect(store.upsertChunks([{ ...base, page: 0 }])).rejects.toThrow(/page/);
    await expect(store.upsertChunks([{ ...base, manualId: 'a\0b' }])).rejects.toThrow(/NUL/);
    await expect(store.deleteManual('')).rejects.toThrow(/manualId/);
    await store.close();
    await expect(store.denseSearch(axis(0), { limit: 1 })).rejects.toThrow(/closed/);
  });

  it('stops at an aborted signal', async () => {
    const store = await openLanceStore(tempDir());
    await store.upsertChunks(suiteChunks());
    const ac = new AbortController();
    ac.abort();
    await expect(store.hybridSearch('pump', axis(2), { limit: 3, signal: ac.signal })).rejects.toThrow(/abort/i);
    await store.close();
  });
});
