/**
 * The embedded vector store: LanceDB on disk (DATA_DIR/lancedb), no server.
 *
 * Tables
 *   chunks  id, manual_id, page, heading, text, ocr, bboxes (JSON), vector FixedSizeList<Float32>
 *           FTS (BM25) index on text; scalar indexes on id, manual_id, page;
 *           an IVF_FLAT vector index only past LANCE_VECTOR_INDEX_MIN_ROWS (flat scans are fast below).
 *   pages   manual_id, page, text, n_vectors, centroid FixedSizeList<Float32>,
 *           multivector List<FixedSizeList<Float32>> (LanceDB's native multivector column: MaxSim).
 *
 * LanceDB 0.37 behaviour this relies on (measured, see lancedb.test.ts):
 * - FTS and scalar indexes can be created on an empty table; rows added later are "unindexed" but
 *   still found (searched flat) unless fastSearch() is used; optimize() folds them into the index.
 * - A vector query with several query vectors against a List<FixedSizeList> column is a MaxSim
 *   search; with cosine, _distance = 1 - Σ_q max_d cos(q, d). Pages with an empty bag never match.
 * - A MaxSim scan reads every bag it scores (~100 MB for 2,000 pages × 32 × 384 floats, ~250 ms),
 *   but a filter served by the scalar indexes reads only the matching rows (~20 ms for 200 pages):
 *   hence two stages — centroids pick candidates, exact MaxSim ranks them.
 * - add()/mergeInsert() do NOT check a vector's length against the column: we do.
 */
import fs from 'node:fs';
import * as lancedb from '@lancedb/lancedb';
import type { ChunkHit, ChunkRecord, HybridOptions, PageHit, PageRecord, SearchFilter, SearchOptions, VectorStore } from '../types';
import { VectorDimensionError, assertDimensions } from './errors';
import { lanceWhere, sqlString } from './filter';
import { fuse, hybridCandidates } from './fusion';
import {
  CHUNK_VECTOR_COLUMN,
  PAGE_BAG_COLUMN,
  PAGE_CENTROID_COLUMN,
  chunkBatch,
  chunksSchema,
  pageBatch,
  pagesSchema,
  vectorDimsOf,
} from './lance-arrow';
import { KeyedSerialQueue } from './queue';
import { byScore, checkLimit, checkManualId, l2normalize, meanVector, parseBBoxes, prepareChunks, preparePages } from './records';

/**
 * Past this many rows a vector index (IVF_FLAT) replaces the flat scan. Measured at 768-d on 2
 * cores: flat ~30 ms at 10k, ~100 ms at 20k, ~330 ms at 50k, ~710 ms at 100k; IVF_FLAT ~19 ms at
 * 20k, ~46 ms at 50k, ~61 ms at 100k with recall@10 = 1.0 (also under a 0.5 % filter). It builds
 * in 0.7 s at 20k / 5 s at 100k, where IVF_HNSW_SQ took 42 s at 50k and IVF_PQ 48 s (recall 0.2).
 */
export const LANCE_VECTOR_INDEX_MIN_ROWS = 20_000;
/** Pages scored exactly by MaxSim per query; the centroid stage picks them. */
export const MULTIVECTOR_CANDIDATES = 200;
/** How often (seconds) a reader checks for writes by another process (the ingest CLI). */
export const LANCE_READ_CONSISTENCY_SECONDS = 1;
/** Old table versions kept for readers in other processes before optimize() deletes them. */
export const LANCE_VERSION_RETENTION_MS = 5 * 60 * 1000;
/**
 * Unindexed rows a write may leave before it updates the indexes itself. Unindexed rows stay
 * searchable, but flat: ~23 ms of BM25 per 1,000 chunks, and MaxSim reads every unindexed page's
 * bag; updating on every write would cost bulk ingestion ~0.5 s per batch.
 */
export const LANCE_OPTIMIZE_UNINDEXED: Record<'chunks' | 'pages', number> = { chunks: 1000, pages: 200 };
/** After writes go quiet for this long, the rest is folded into the indexes in the background. */
export const LANCE_OPTIMIZE_IDLE_MS = 2000;
/** Rows per mergeInsert call: bounds the memory of one Arrow batch. */
const UPSERT_BATCH_ROWS = 4096;

type TableName = 'chunks' | 'pages';
const VECTOR_COLUMN: Record<TableName, string> = { chunks: CHUNK_VECTOR_COLUMN, pages: PAGE_BAG_COLUMN };
const CHUNK_COLUMNS = ['id', 'manual_id', 'page', 'heading', 'text', 'ocr', 'bboxes'];

export interface LanceStoreOptions {
  /** Dense vector size this store must hold; checked against an existing table on open. */
  dimensions?: number;
  /** Multi-vector (page bag) vector size; checked likewise. */
  multiVectorDimensions?: number;
  /** Row count at which a vector index is built (default LANCE_VECTOR_INDEX_MIN_ROWS). */
  vectorIndexMinRows?: number;
  /** Candidate pages for exact MaxSim (default MULTIVECTOR_CANDIDATES). */
  multiVectorCandidates?: number;
  readConsistencySeconds?: number;
  /** Unindexed rows that make a write optimize on the spot (default LANCE_OPTIMIZE_UNINDEXED). */
  optimizeUnindexedRows?: Partial<Record<'chunks' | 'pages', number>>;
  /** Quiet time before the background optimize (default LANCE_OPTIMIZE_IDLE_MS). */
  optimizeIdleMs?: number;
}

type Row = Record<string, unknown>;

export class LanceStore implements VectorStore {
  readonly provider = 'lancedb' as const;
  private readonly queue = new KeyedSerialQueue();
  private readonly handles = new Map<TableName, Promise<lancedb.Table | null>>();
  private readonly dims: Partial<Record<TableName, number>> = {};
  private readonly idleTimers = new Map<TableName, NodeJS.Timeout>();
  private closedFlag = false;

  private constructor(
    private readonly db: lancedb.Connection,
    readonly dir: string,
    private readonly opts: LanceStoreOptions,
  ) {}

  static async open(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
    await fs.promises.mkdir(dir, { recursive: true });
    const db = await lancedb.connect(dir, {
      readConsistencyInterval: opts.readConsistencySeconds ?? LANCE_READ_CONSISTENCY_SECONDS,
    });
    const store = new LanceStore(db, dir, opts);
    try {
      // Fail at open, not at the first search, when the embedder no longer matches the index.
      for (const name of ['chunks', 'pages'] as const) {
        const expected = name === 'chunks' ? opts.dimensions : opts.multiVectorDimensions;
        if ((await store.table(name)) && expected !== undefined) store.checkDims(name, expected);
      }
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  // ---- writes -------------------------------------------------------------------------------

  async upsertChunks(chunks: ChunkRecord[]): Promise<void> {
    this.assertOpen();
    const rows = prepareChunks(chunks);
    if (rows.length === 0) return;
    const dims = this.dims.chunks ?? this.opts.dimensions ?? rows[0].vector.length;
    assertDimensions(this.describe('chunks'), dims, rows.map((r) => r.vector));
    await this.queue.run('chunks', async () => {
      const table = await this.ensureTable('chunks', dims);
      for (let i = 0; i < rows.length; i += UPSERT_BATCH_ROWS) {
        const batch = rows.slice(i, i + UPSERT_BATCH_ROWS).map((c) => ({
          id: c.id,
          manualId: c.manualId,
          page: c.page,
          heading: c.heading ?? '',
          text: c.text ?? '',
          ocr: !!c.ocr,
          bboxesJson: JSON.stringify(c.bboxes ?? []),
          vector: c.vector,
        }));
        await table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(chunkBatch(dims, batch));
      }
      await this.afterWrite('chunks', table);
    });
  }

  async upsertPages(pages: PageRecord[]): Promise<void> {
    this.assertOpen();
    const prepared = preparePages(pages);
    const dims = this.dims.pages ?? this.opts.multiVectorDimensions ?? prepared.find((p) => p.vectors.length > 0)?.vectors[0].length;
    // Only blank pages (empty bags) and no table yet: nothing says what size the table should
    // have, and a page without vectors can never be found by MaxSim anyway.
    if (dims === undefined || prepared.length === 0) return;
    assertDimensions(this.describe('pages'), dims, prepared.flatMap((p) => p.vectors));
    await this.queue.run('pages', async () => {
      const table = await this.ensureTable('pages', dims);
      for (let i = 0; i < prepared.length; i += UPSERT_BATCH_ROWS) {
        const batch = prepared.slice(i, i + UPSERT_BATCH_ROWS).map((p) => ({
          manualId: p.manualId,
          page: p.page,
          text: p.text,
          centroid: meanVector(p.vectors, dims),
          bag: p.vectors,
        }));
        await table
          .mergeInsert(['manual_id', 'page'])
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .execute(pageBatch(dims, batch));
      }
      await this.afterWrite('pages', table);
    });
  }

  async deleteManual(manualId: string): Promise<void> {
    this.assertOpen();
    const where = `manual_id = ${sqlString(checkManualId(manualId))}`;
    await Promise.all(
      (['chunks', 'pages'] as const).map((name) =>
        this.queue.run(name, async () => {
          const table = await this.table(name);
          if (table) await table.delete(where);
        }),
      ),
    );
  }

  // ---- reads --------------------------------------------------------------------------------

  async denseSearch(vector: Float32Array, opts: SearchOptions): Promise<ChunkHit[]> {
    this.assertOpen();
    opts.signal?.throwIfAborted();
    const limit = checkLimit(opts.limit);
    const table = await this.readable('chunks', [vector], this.opts.dimensions);
    if (!table || limit === 0) return [];
    let q = table
      .vectorSearch(vector)
      .column(CHUNK_VECTOR_COLUMN)
      .distanceType('cosine')
      .select([...CHUNK_COLUMNS, '_distance'])
      .limit(limit);
    const where = lanceWhere(opts.filter);
    if (where) q = q.where(where);
    const rows = (await q.toArray()) as Row[];
    opts.signal?.throwIfAborted();
    return rows.map((r) => toChunkHit(r, 1 - Number(r._distance))).sort(byScore);
  }

  async bm25Search(query: string, opts: SearchOptions): Promise<ChunkHit[]> {
    this.assertOpen();
    opts.signal?.throwIfAborted();
    const limit = checkLimit(opts.limit);
    if (typeof query !== 'string' || query.trim() === '' || limit === 0) return [];
    const table = await this.table('chunks');
    if (!table) return [];
    // A plain string becomes a match query over the analysed tokens: operators and quotes in
    // the user's text are not parsed, so there is nothing to escape here.
    let q = table
      .query()
      .fullTextSearch(query, { columns: 'text' })
      .select([...CHUNK_COLUMNS, '_score'])
      .limit(limit);
    const where = lanceWhere(opts.filter);
    if (where) q = q.where(where);
    const rows = (await q.toArray()) as Row[];
    opts.signal?.throwIfAborted();
    // Sorted here: with only unindexed rows LanceDB returns FTS hits unordered.
    return rows.map((r) => toChunkHit(r, Number(r._score))).sort(byScore);
  }

  async hybridSearch(query: string, vector: Float32Array, opts: HybridOptions): Promise<ChunkHit[]> {
    this.assertOpen();
    const limit = checkLimit(opts.limit);
    if (limit === 0) return [];
    const legOpts = { limit: hybridCandidates(limit), filter: opts.filter, signal: opts.signal };
    const [dense, bm25] = await Promise.all([this.denseSearch(vector, legOpts), this.bm25Search(query, legOpts)]);
    return fuse(dense, bm25, { alpha: opts.alpha, fusion: opts.fusion, limit });
  }

  async multiVectorSearch(queryVectors: Float32Array[], opts: SearchOptions): Promise<PageHit[]> {
    this.assertOpen();
    opts.signal?.throwIfAborted();
    const limit = checkLimit(opts.limit);
    if (queryVectors.length === 0 || limit === 0) return [];
    const table = await this.readable('pages', queryVectors, this.opts.multiVectorDimensions);
    if (!table) return [];
    const dims = this.dims.pages!;
    const qs = queryVectors.map(l2normalize);
    const where = lanceWhere(opts.filter);

    // Stage 1: Σ_q q·centroid = |Q| · mean(Q)·centroid, so one dot-product search over the
    // centroids ranks pages by their average similarity to the query.
    const nCandidates = Math.max(this.opts.multiVectorCandidates ?? MULTIVECTOR_CANDIDATES, limit * 4);
    let stage1 = table
      .vectorSearch(meanVector(qs, dims))
      .column(PAGE_CENTROID_COLUMN)
      .distanceType('dot')
      .select(['manual_id', 'page', '_distance'])
      .limit(nCandidates);
    if (where) stage1 = stage1.where(where);
    const candidates = (await stage1.toArray()) as Row[];
    opts.signal?.throwIfAborted();
    if (candidates.length === 0) return [];

    // Stage 2: exact MaxSim over the candidates only; the (manual_id, page) filter is served by
    // the scalar indexes, so only the candidates' bags are read. With fewer pages in scope than
    // candidates, every page is a candidate and the search is exact.
    const pagesByManual = new Map<string, number[]>();
    for (const c of candidates) {
      const m = String(c.manual_id);
      if (!pagesByManual.has(m)) pagesByManual.set(m, []);
      pagesByManual.get(m)!.push(Number(c.page));
    }
    const candidateWhere = [...pagesByManual]
      .map(([m, pages]) => `(manual_id = ${sqlString(m)} AND page IN (${pages.join(', ')}))`)
      .join(' OR ');
    const rows = (await table
      .vectorSearch(qs)
      .column(PAGE_BAG_COLUMN)
      .distanceType('cosine')
      .where(candidateWhere)
      .select(['manual_id', 'page', '_distance'])
      .limit(limit)
      .toArray()) as Row[];
    opts.signal?.throwIfAborted();
    return rows
      .filter((r) => r._distance !== null && r._distance !== undefined)
      .map((r) => ({ manualId: String(r.manual_id), page: Number(r.page), score: 1 - Number(r._distance) }))
      .sort(byScore);
  }

  async count(filter?: SearchFilter): Promise<{ chunks: number; pages: number }> {
    this.assertOpen();
    const where = lanceWhere(filter);
    const rows = async (name: TableName) => {
      const table = await this.table(name);
      return table ? table.countRows(where) : 0;
    };
    const [chunks, pages] = await Promise.all([rows('chunks'), rows('pages')]);
    return { chunks, pages };
  }

  /** Waits for queued writes, then folds every unindexed row into the indexes (bench, eval harness). */
  async optimize(): Promise<void> {
    this.assertOpen();
    await Promise.all((['chunks', 'pages'] as const).map((name) => this.optimizeNow(name)));
  }

  /** Drops both tables (re-index with another embedder; tests). */
  async drop(): Promise<void> {
    this.assertOpen();
    await this.queue.idle();
    const names = await this.db.tableNames();
    for (const name of ['chunks', 'pages'] as const) {
      const handle = await this.handles.get(name);
      handle?.close();
      this.handles.delete(name);
      delete this.dims[name];
      if (names.includes(name)) await this.db.dropTable(name);
    }
  }

  /**
   * Finishes pending index maintenance (a CLI exits right after its writes; its idle optimize
   * would never fire), then closes. Call it — or closeVectorStores() — before a process exits.
   */
  async close(): Promise<void> {
    if (this.closedFlag) return;
    const pending = [...this.idleTimers.keys()];
    await Promise.all(pending.map((name) => this.optimizeNow(name).catch(() => undefined)));
    this.closedFlag = true;
    await this.queue.idle();
    for (const handle of this.handles.values()) (await handle.catch(() => null))?.close();
    this.handles.clear();
    this.db.close();
  }

  // ---- internals ----------------------------------------------------------------------------

  private assertOpen() {
    if (this.closedFlag) throw new Error(`LanceStore at ${this.dir} is closed`);
  }

  private describe(name: TableName): string {
    return `LanceDB table "${name}" (column ${VECTOR_COLUMN[name]}) at ${this.dir}`;
  }

  private checkDims(name: TableName, actual: number) {
    const expected = this.dims[name];
    if (expected !== undefined && expected !== actual) throw new VectorDimensionError(this.describe(name), expected, actual);
  }

  /** The table for a search, after checking the query's size; null when nothing was stored yet. */
  private async readable(name: TableName, vectors: ArrayLike<number>[], configured?: number): Promise<lancedb.Table | null> {
    const table = await this.table(name);
    const expected = this.dims[name] ?? configured;
    if (expected !== undefined) assertDimensions(this.describe(name), expected, vectors);
    return table;
  }

  /** An open handle to an existing table, or null. Not-found is not cached: another process may create it. */
  private table(name: TableName): Promise<lancedb.Table | null> {
    const cached = this.handles.get(name);
    if (cached) return cached;
    const opening = (async () => {
      if (!(await this.db.tableNames()).includes(name)) return null;
      const table = await this.db.openTable(name);
      await this.learnDims(name, table);
      return table;
    })();
    this.handles.set(name, opening);
    void opening.then(
      (t) => {
        if (!t && this.handles.get(name) === opening) this.handles.delete(name);
      },
      () => {
        if (this.handles.get(name) === opening) this.handles.delete(name);
      },
    );
    return opening;
  }

  private async learnDims(name: TableName, table: lancedb.Table) {
    const dims = vectorDimsOf(await table.schema(), VECTOR_COLUMN[name]);
    if (dims !== undefined) this.dims[name] = dims;
  }

  /** Called inside the table's write queue. */
  private async ensureTable(name: TableName, dims: number): Promise<lancedb.Table> {
    let table = await this.table(name);
    if (!table) {
      const schema = name === 'chunks' ? chunksSchema(dims) : pagesSchema(dims);
      // existOk: another process may have created it first; its schema is what counts then.
      table = await this.db.createEmptyTable(name, schema, { mode: 'create', existOk: true });
      this.handles.set(name, Promise.resolve(table));
      await this.learnDims(name, table);
    }
    this.checkDims(name, dims);
    await this.ensureBaseIndexes(name, table);
    return table;
  }

  /** FTS and scalar indexes exist from the start, so no reader ever sees a table without them. */
  private async ensureBaseIndexes(name: TableName, table: lancedb.Table) {
    const have = new Set((await table.listIndices()).flatMap((i) => i.columns));
    for (const [column, config] of baseIndexes(name)) {
      if (!have.has(column)) await table.createIndex(column, { config: config(), replace: false });
    }
  }

  /**
   * After a write. Unindexed rows are searchable but flat, so past a threshold the write brings
   * the indexes up to date itself: chunks through optimize() (compaction + incremental FTS/
   * scalar/vector index update, ~0.3–0.8 s at 5k–20k chunks), pages by rebuilding their two
   * scalar indexes (~10 ms) — compacting page bags rewrites ~100 MB and can wait. Whatever is
   * left is optimized in the background once writes go quiet.
   */
  private async afterWrite(name: TableName, table: lancedb.Table) {
    const unindexed = (await table.listIndices()).reduce((n, i) => Math.max(n, i.numUnindexedRows ?? 0), 0);
    if (unindexed >= (this.opts.optimizeUnindexedRows?.[name] ?? LANCE_OPTIMIZE_UNINDEXED[name])) {
      if (name === 'chunks') await this.optimizeTable(name, table);
      else for (const [column, config] of baseIndexes(name)) await table.createIndex(column, { config: config(), replace: true });
    }
    this.scheduleIdleOptimize(name);
  }

  private scheduleIdleOptimize(name: TableName) {
    clearTimeout(this.idleTimers.get(name));
    const timer = setTimeout(() => {
      this.idleTimers.delete(name);
      if (this.closedFlag) return;
      this.optimizeNow(name).catch((err: unknown) => console.warn(`[vectorstore] background optimize of ${name} failed:`, err));
    }, this.opts.optimizeIdleMs ?? LANCE_OPTIMIZE_IDLE_MS);
    timer.unref?.(); // never keeps a CLI process alive
    this.idleTimers.set(name, timer);
  }

  private optimizeNow(name: TableName): Promise<void> {
    clearTimeout(this.idleTimers.get(name));
    this.idleTimers.delete(name);
    return this.queue.run(name, async () => {
      const table = await this.table(name);
      if (table && !this.closedFlag) await this.optimizeTable(name, table);
    });
  }

  private async optimizeTable(name: TableName, table: lancedb.Table) {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - LANCE_VERSION_RETENTION_MS) });
    const column = name === 'chunks' ? CHUNK_VECTOR_COLUMN : PAGE_CENTROID_COLUMN;
    const indexed = (await table.listIndices()).some((i) => i.columns.includes(column));
    if (!indexed && (await table.countRows()) >= (this.opts.vectorIndexMinRows ?? LANCE_VECTOR_INDEX_MIN_ROWS)) {
      // IVF_FLAT: full vectors in each partition, so distances stay exact and the build is cheap
      // enough to run inside a write (see LANCE_VECTOR_INDEX_MIN_ROWS for the figures).
      await table.createIndex(column, {
        config: lancedb.Index.ivfFlat({ distanceType: name === 'chunks' ? 'cosine' : 'dot' }),
      });
    }
  }
}

/** Indexes every table has from creation on. */
function baseIndexes(name: TableName): Array<[string, () => lancedb.Index]> {
  const scalar: Array<[string, () => lancedb.Index]> = [
    ['manual_id', () => lancedb.Index.bitmap()],
    ['page', () => lancedb.Index.btree()],
  ];
  if (name === 'pages') return scalar;
  return [
    // English analysis (lowercase, stemming, stop words, ASCII folding); the simple tokenizer
    // splits "XC6206-P332MR" into xc6206 + p332mr and keeps "STM32F072" whole.
    ['text', () => lancedb.Index.fts({ withPosition: false })],
    ['id', () => lancedb.Index.btree()],
    ...scalar,
  ];
}

function toChunkHit(r: Row, score: number): ChunkHit {
  return {
    id: String(r.id),
    manualId: String(r.manual_id),
    page: Number(r.page),
    heading: String(r.heading ?? ''),
    text: String(r.text ?? ''),
    ocr: Boolean(r.ocr),
    bboxes: parseBBoxes(r.bboxes),
    score,
  };
}

/** Opens (creating if needed) a LanceDB store in `dir`. Tables are created on the first upsert. */
export function openLanceStore(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
  return LanceStore.open(dir, opts);
}
