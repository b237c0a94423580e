/**
 * The embedded vector store: LanceDB on disk (DATA_DIR/lancedb), no server.
 *
 * Tables
 *   chunks  id, manual_id, page, heading, text, ocr, bboxes (JSON), vector FixedSizeList<Float32>
 *           FTS (BM25) index on text; scalar indexes on id, manual_id, page;
 *           an IVF_FLAT (dot) vector index only past LANCE_VECTOR_INDEX_MIN_ROWS (flat scans are
 *           fast below), retrained as the table grows; vectors are stored L2-normalised, so
 *           dot product = cosine.
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
 * - An IVF index is trained once: optimize() appends new rows to the existing partitions and never
 *   splits them, so the partition count is chosen from the row count and the index is rebuilt
 *   (under a new name, then the old one dropped: searches stay indexed) once the table has grown.
 * - A filtered vector query over an IVF index prefilters, then searches only the probed
 *   partitions: a selective filter (one manual, one page) silently returns fewer rows than exist.
 *   Probing every partition is exact and, thanks to the prefilter, costs about the matching rows.
 */
import fs from 'node:fs';
import * as lancedb from '@lancedb/lancedb';
import { runtimeNumber } from '../../config';
import type { ChunkHit, ChunkRecord, HybridOptions, PageHit, PageRecord, SearchFilter, SearchOptions, VectorStore } from '../types';
import { VectorDimensionError, assertDimensions } from './errors';
import { lanceWhere, sqlString } from './filter';
import { fuse, hybridCandidates } from './fusion';
import { CHUNK_VECTOR_COLUMN, PAGE_BAG_COLUMN, PAGE_CENTROID_COLUMN, chunkBatch, chunksSchema, pageBatch, pagesSchema, vectorDimsOf } from './lance-arrow';
import { VectorStoreAdapter } from './adapter';
import { byScore, checkLimit, checkManualId, l2normalize, meanVector, prepareChunks, preparePages, storedChunkHit } from './records';

/**
 * Past this many rows a vector index replaces the flat scan. A flat scan reads the vectors from
 * the data files (~2 µs a row at 768-d: ~21 ms at 10k chunks, ~260 ms at 100k); an IVF_FLAT index
 * holds them in memory, so even probing most partitions is faster (~5 ms at 10k, recall 1.0, built
 * in under 1 s). Page centroids (256-d, a stage that wants 200 candidates) keep 20k and LanceDB's
 * default partitioning.
 *
 * Measured at 100k chunks of 768-d, 2 shared cores (±30 %), recall@10 against an exact scan, on
 * the bench corpus (34 sample chunks × ~2,900 jittered replicas) and on one grown the same way
 * from the 389 real dev-manual chunks (the harder one; 30 dev questions + 100 passage snippets):
 * - LanceDB's default IVF_FLAT (cosine): it makes only ~24 partitions of ~4k rows and probes 20,
 *   i.e. compares 91 % of the rows: ~50 ms, recall 1.0; built in ~7 s. The selected payload
 *   columns cost ~1 ms of that (fetching ids first, then the rows, is slower).
 * - IVF_FLAT, ~250 partitions, 20 probes: cosine 11–13 ms, recall 0.91–0.95 (real corpus; 1.0 on
 *   the bench's); dot 7–8 ms, recall 0.98–0.99, built in ~12 s (the same builds, side by side;
 *   l2 10–11 ms, 0.94). 128 partitions: slower and no better; 512: recall 0.99 at 20 probes.
 * - IVF_HNSW_SQ (64–128 partitions, m 20–32, ef_construction 300, ef 40–500, refine 10):
 *   5–20 ms but recall 0.43–0.62, built in ~40 s; IVF_HNSW_PQ recall ≤ 0.11, built in 93 s.
 * - IVF_PQ (256, refine 50) 16 ms, recall 0.75, built in 139 s; IVF_RQ (256, refine 20 / 50)
 *   9 / 15 ms, recall 0.82 / 0.95, built in 24 s.
 * Quantised indexes cannot tell near-duplicate passages apart; IVF_FLAT on dot products can.
 */
const LANCE_VECTOR_INDEX_MIN_ROWS: Record<'chunks' | 'pages', number> = { chunks: 5_000, pages: 20_000 };
/** Rows per IVF partition the index is trained for: ~250 partitions at 100k rows. */
const LANCE_IVF_ROWS_PER_PARTITION = 400;
/** The index is retrained once the table holds this many times the rows it was trained for. */
const LANCE_IVF_REBUILD_GROWTH = 2;
/** Partitions an unfiltered query probes (~8 % of the rows at 400–800 rows a partition). */
const LANCE_IVF_NPROBES = 20;
/** nprobes that means "every partition" when the partition count is unknown (LanceDB clamps it). */
const ALL_PARTITIONS = 100_000;
/**
 * Cache budgets of the LanceDB session (MB). LanceDB's defaults (6 GB of index cache, 1 GB of
 * metadata) let every table version's index pieces and file metadata pile up in a long-running
 * server: under the load test (2 new manuals a round) the server's RSS kept climbing. 512 MB
 * still holds a 100k-chunk IVF_FLAT index (~300 MB at 768-d). Override with LANCE_INDEX_CACHE_MB /
 * LANCE_METADATA_CACHE_MB.
 */
const LANCE_CACHE_MB = { index: 512, metadata: 128 } as const;

let sharedSession: lancedb.Session | undefined;
/** One session per process, so every connection shares (and bounds) the same caches. */
function lanceSession(): lancedb.Session {
  const mb = (name: 'LANCE_INDEX_CACHE_MB' | 'LANCE_METADATA_CACHE_MB', fallback: number) => BigInt(Math.round(runtimeNumber(name, fallback) * 1024 * 1024));
  return (sharedSession ??= new lancedb.Session(mb('LANCE_INDEX_CACHE_MB', LANCE_CACHE_MB.index), mb('LANCE_METADATA_CACHE_MB', LANCE_CACHE_MB.metadata)));
}

/** Pages scored exactly by MaxSim per query; the centroid stage picks them. */
export const MULTIVECTOR_CANDIDATES = 200;
/** How often (seconds) a reader checks for writes by another process (the ingest CLI). */
const LANCE_READ_CONSISTENCY_SECONDS = 1;
/** Old table versions kept for readers in other processes before optimize() deletes them. */
const LANCE_VERSION_RETENTION_MS = 5 * 60 * 1000;
/**
 * Unindexed rows a write may leave before it updates the indexes itself. Unindexed rows stay
 * searchable, but flat: ~23 ms of BM25 per 1,000 chunks, and MaxSim reads every unindexed page's
 * bag; updating on every write would cost bulk ingestion ~0.5 s per batch.
 */
const LANCE_OPTIMIZE_UNINDEXED: Record<'chunks' | 'pages', number> = { chunks: 1000, pages: 200 };
/** After writes go quiet for this long, the rest is folded into the indexes in the background. */
const LANCE_OPTIMIZE_IDLE_MS = 2000;
/** Rows per write (delete + add): bounds the memory of one Arrow batch. */
const UPSERT_BATCH_ROWS = 4096;

type TableName = 'chunks' | 'pages';
/** Column searched by ANN: the chunk vectors, the page centroids (page bags are searched exactly). */
const ANN_COLUMN: Record<TableName, string> = { chunks: CHUNK_VECTOR_COLUMN, pages: PAGE_CENTROID_COLUMN };
const VECTOR_COLUMN: Record<TableName, string> = { chunks: CHUNK_VECTOR_COLUMN, pages: PAGE_BAG_COLUMN };
const CHUNK_COLUMNS = ['id', 'manual_id', 'page', 'heading', 'text', 'ocr', 'bboxes'];

export interface LanceStoreOptions {
  /** Dense vector size this store must hold; checked against an existing table on open. */
  dimensions?: number;
  /** Multi-vector (page bag) vector size; checked likewise. */
  multiVectorDimensions?: number;
  /** Row count at which a vector index is built, both tables (default LANCE_VECTOR_INDEX_MIN_ROWS). */
  vectorIndexMinRows?: number;
  /** Rows per IVF partition (default LANCE_IVF_ROWS_PER_PARTITION). */
  ivfRowsPerPartition?: number;
  /** Partitions an unfiltered query probes (default LANCE_IVF_NPROBES). */
  ivfProbes?: number;
  /** Candidate pages for exact MaxSim (default MULTIVECTOR_CANDIDATES). */
  multiVectorCandidates?: number;
  readConsistencySeconds?: number;
  /** Unindexed rows that make a write optimize on the spot (default LANCE_OPTIMIZE_UNINDEXED). */
  optimizeUnindexedRows?: Partial<Record<'chunks' | 'pages', number>>;
  /** Quiet time before the background optimize (default LANCE_OPTIMIZE_IDLE_MS). */
  optimizeIdleMs?: number;
}

type Row = Record<string, unknown>;

export class LanceStore extends VectorStoreAdapter implements VectorStore {
  readonly provider = 'lancedb' as const;
  private readonly handles = new Map<TableName, Promise<lancedb.Table | null>>();
  private readonly dims: Partial<Record<TableName, number>> = {};
  private readonly idleTimers = new Map<TableName, NodeJS.Timeout>();
  /**
   * Per table handle (a dropped and recreated table starts its versions again): row counts by
   * version and filter (a chat repeats its scope's filter on every search), and the vector index.
   */
  private readonly rowCounts = new WeakMap<lancedb.Table, Map<string, Promise<number>>>();
  private readonly searchIndexes = new WeakMap<lancedb.Table, { version: number; index: VectorIndexInfo | null }>();
  private readonly prewarmed = new WeakMap<lancedb.Table, string>();

  private constructor(
    private readonly db: lancedb.Connection,
    readonly dir: string,
    private readonly opts: LanceStoreOptions,
  ) {
    super();
  }

  protected get label(): string {
    return `LanceStore at ${this.dir}`;
  }

  static async open(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
    await fs.promises.mkdir(dir, { recursive: true });
    const db = await lancedb.connect(dir, { readConsistencyInterval: opts.readConsistencySeconds ?? LANCE_READ_CONSISTENCY_SECONDS }, lanceSession());
    const store = new LanceStore(db, dir, opts);
    try {
      // Fail at open, not at the first search, when the embedder no longer matches the index.
      for (const name of ['chunks', 'pages'] as const) {
        const expected = name === 'chunks' ? opts.dimensions : opts.multiVectorDimensions;
        const table = await store.table(name);
        if (!table) continue;
        if (expected !== undefined) store.checkDims(name, expected);
        // A missing or old-style vector index (LanceDB's default partitions, cosine) is built in
        // the background; an existing one starts loading into memory.
        if (await store.vectorIndexNeedsBuild(name, table)) store.scheduleIdleOptimize(name);
        await store.searchIndex(name, table);
      }
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  // ---- writes -------------------------------------------------------------------------------

  async upsertChunks(chunks: ChunkRecord[]): Promise<void> {
    this.assertOpen();
    const rows = prepareChunks(chunks);
    if (rows.length === 0) return;
    const dims = this.dims.chunks ?? this.opts.dimensions ?? rows[0].vector.length;
    assertDimensions(
      this.describe('chunks'),
      dims,
      rows.map((r) => r.vector),
    );
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
          // Unit length, so the dot product the index uses is the cosine.
          vector: l2normalize(c.vector),
        }));
        // Delete + add, as for pages: mergeInsert('id') reads every row the id index does not
        // cover yet, so a bulk load (or a library between optimizes) paid for the whole table again
        // on every write.
        await table.delete(`id IN (${batch.map((c) => sqlString(c.id)).join(', ')})`);
        await table.add(chunkBatch(dims, batch));
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
    assertDimensions(
      this.describe('pages'),
      dims,
      prepared.flatMap((p) => p.vectors),
    );
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
        // Delete + add rather than mergeInsert(['manual_id', 'page']): a merge on that composite
        // key joins against every row of the table, bags included (no index serves it), so each
        // write cost grows with the library — 10k pages of the bench took many minutes. The
        // delete's filter is served by the scalar indexes and reads only the key columns.
        await table.delete(pageKeysWhere(batch));
        await table.add(pageBatch(dims, batch));
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
    const limit = this.beginSearch(opts);
    const table = await this.readable('chunks', [vector], this.opts.dimensions);
    if (!table || limit === 0) return [];
    const normalised = l2normalize(vector);
    const rows = await this.scoped(table, lanceWhere(opts.filter), async (where) => {
      const q = await this.vectorQuery('chunks', table, normalised, limit, where);
      return q ? ((await q.select([...CHUNK_COLUMNS, '_distance']).toArray()) as Row[]) : [];
    });
    opts.signal?.throwIfAborted();
    // cosine and dot distances are both 1 - cos for unit vectors.
    return rows.map((r) => toChunkHit(r, 1 - Number(r._distance))).sort(byScore);
  }

  async bm25Search(query: string, opts: SearchOptions): Promise<ChunkHit[]> {
    const limit = this.beginSearch(opts);
    if (typeof query !== 'string' || query.trim() === '' || limit === 0) return [];
    const table = await this.table('chunks');
    if (!table) return [];
    // A plain string becomes a match query over the analysed tokens: operators and quotes in
    // the user's text are not parsed, so there is nothing to escape here.
    const rows = await this.scoped(table, lanceWhere(opts.filter), (where) => {
      let q = table
        .query()
        .fullTextSearch(query, { columns: 'text' })
        .select([...CHUNK_COLUMNS, '_score'])
        .limit(limit);
      if (where) q = q.where(where);
      return q.toArray() as Promise<Row[]>;
    });
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
    const limit = this.beginSearch(opts);
    if (queryVectors.length === 0 || limit === 0) return [];
    const table = await this.readable('pages', queryVectors, this.opts.multiVectorDimensions);
    if (!table) return [];
    const dims = this.dims.pages!;
    const qs = queryVectors.map(l2normalize);
    const where = lanceWhere(opts.filter);

    // Stage 1: Σ_q q·centroid = |Q| · mean(Q)·centroid, so one dot-product search over the
    // centroids ranks pages by their average similarity to the query.
    const nCandidates = Math.max(this.opts.multiVectorCandidates ?? MULTIVECTOR_CANDIDATES, limit * 4);
    const centroidQuery = meanVector(qs, dims);
    const candidates = await this.scoped(table, where, async (w) => {
      const stage1 = await this.vectorQuery('pages', table, centroidQuery, nCandidates, w);
      return stage1 ? ((await stage1.select(['manual_id', 'page', '_distance']).toArray()) as Row[]) : [];
    });
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
    const candidateWhere = [...pagesByManual].map(([m, pages]) => `(manual_id = ${sqlString(m)} AND page IN (${pages.join(', ')}))`).join(' OR ');
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
      return table ? this.countRows(table, where) : 0;
    };
    const [chunks, pages] = await Promise.all([rows('chunks'), rows('pages')]);
    return { chunks, pages };
  }

  /**
   * Rows per manual in both tables, from the manual_id column of every data file: a deleted or
   * truncated file fails here rather than quietly shrinking search results. A failure forgets the
   * table handles, so the next use opens whatever the folder holds then.
   */
  async vectorsPerManual(): Promise<Map<string, { chunks: number; pages: number }>> {
    this.assertOpen();
    const counts = new Map<string, { chunks: number; pages: number }>();
    for (const name of ['chunks', 'pages'] as const) {
      try {
        const table = await this.table(name);
        if (!table) continue;
        const column = (await table.query().select(['manual_id']).toArrow()).getChild('manual_id');
        for (const id of column ?? []) {
          const entry = counts.get(String(id)) ?? { chunks: 0, pages: 0 };
          entry[name]++;
          counts.set(String(id), entry);
        }
      } catch (err) {
        this.handles.delete(name);
        throw err;
      }
    }
    return counts;
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

  private describe(name: TableName): string {
    return `LanceDB table "${name}" (column ${VECTOR_COLUMN[name]}) at ${this.dir}`;
  }

  private checkDims(name: TableName, actual: number) {
    const expected = this.dims[name];
    if (expected !== undefined && expected !== actual) throw new VectorDimensionError(this.describe(name), expected, actual);
  }

  /** The table for a search, after checking the query's size; null when nothing was stored yet. */
  private async readable(name: TableName, vectors: ArrayLike<number>[], configured?: number): Promise<lancedb.Table | null> {
    let table = await this.table(name);
    if (this.dims[name] !== undefined && vectors.some((v) => v.length !== this.dims[name])) {
      // Another process may have rebuilt the table for a new embedder (lib/ingest/reembed.ts): look
      // again before calling the sizes a mismatch. The old handle is left to in-flight searches.
      this.handles.delete(name);
      delete this.dims[name];
      table = await this.table(name);
    }
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

  /**
   * A vector query on the table's ANN column, or null when the filter matches no row. Without an
   * index it is a flat (exact) scan. With one, an unfiltered query probes `ivfProbes` partitions;
   * a filtered one probes more the fewer rows match (as many matching rows as an unfiltered query
   * scans), and every partition when no more rows match than asked for: exact, so a filter on one
   * manual or one page returns all of its rows (hybrid_search reads whole manuals this way).
   */
  private async vectorQuery(
    name: TableName,
    table: lancedb.Table,
    vector: Float32Array,
    limit: number,
    where: string | undefined,
  ): Promise<lancedb.VectorQuery | null> {
    const column = ANN_COLUMN[name];
    const index = await this.searchIndex(name, table);
    let q = table
      .vectorSearch(vector)
      .column(column)
      .distanceType(index?.metric ?? 'dot')
      .limit(limit);
    if (where) q = q.where(where);
    if (!index) return q;
    const probes = this.opts.ivfProbes ?? LANCE_IVF_NPROBES;
    const all = index.partitions ?? ALL_PARTITIONS;
    if (!where) return q.nprobes(Math.min(probes, all));
    const matching = await this.countRows(table, where);
    if (matching === 0) return null;
    const total = await this.countRows(table);
    return q.nprobes(matching <= limit ? all : Math.min(all, Math.ceil((probes * total) / matching)));
  }

  /**
   * Runs a search with its filter, or without it when the filter matches every row of the table
   * (a chat scoped to every ready manual, the usual case once nothing is being ingested): a
   * manual_id IN list costs ~5 µs per id in each leg, ~12 ms for 2,900 manuals. The table version
   * is read before the counts and after the search; if a write came in between, the search runs
   * again with the filter, so a half-ingested manual never slips in.
   */
  private async scoped<T>(table: lancedb.Table, where: string | undefined, run: (where: string | undefined) => Promise<T>): Promise<T> {
    if (!where) return run(undefined);
    const version = await table.version();
    const [matching, total] = await Promise.all([this.countRows(table, where), this.countRows(table)]);
    if (matching === total) {
      const out = await run(undefined);
      if ((await table.version()) === version) return out;
    }
    return run(where);
  }

  /** The table's vector index as of its current version (listIndices costs ~0.6 ms a query). */
  private async searchIndex(name: TableName, table: lancedb.Table): Promise<VectorIndexInfo | null> {
    const version = await table.version();
    const cached = this.searchIndexes.get(table);
    if (cached?.version === version) return cached.index;
    const index = await vectorIndexOf(table, ANN_COLUMN[name]);
    this.searchIndexes.set(table, { version, index });
    if (index) void this.prewarm(table, index.name);
    return index;
  }

  /**
   * Loads an index into memory once per handle (~0.2 s, ~70 MB at 100k chunks): otherwise the
   * first queries after a build or a start read their partitions from disk (p95 45–90 ms, not 10).
   * Only an optimisation: a failure (the index was just replaced) is ignored.
   */
  private prewarm(table: lancedb.Table, indexName: string): Promise<void> {
    if (this.prewarmed.get(table) === indexName) return Promise.resolve();
    this.prewarmed.set(table, indexName);
    return table.prewarmIndex(indexName).catch(() => undefined);
  }

  /** countRows, remembered per table version (a few ms for a long manual_id IN list). */
  private async countRows(table: lancedb.Table, where?: string): Promise<number> {
    const key = `${await table.version()}\u0000${where ?? ''}`;
    let counts = this.rowCounts.get(table);
    if (!counts) this.rowCounts.set(table, (counts = new Map()));
    let n = counts.get(key);
    if (n === undefined) {
      // The promise is remembered, so the two legs of a hybrid search count once.
      n = table.countRows(where);
      counts.set(key, n);
      n.catch(() => counts.delete(key));
      if (counts.size > 256) counts.delete(counts.keys().next().value!);
    }
    return n;
  }

  /** Partitions for an index trained on `rows` rows. */
  private ivfPartitions(rows: number): number {
    return Math.max(1, Math.round(rows / (this.opts.ivfRowsPerPartition ?? LANCE_IVF_ROWS_PER_PARTITION)));
  }

  /**
   * True when the table is big enough for a vector index and has none; for chunks also when its
   * index is old-style (LanceDB's default partitions, cosine) or was trained on too few rows.
   */
  private async vectorIndexNeedsBuild(name: TableName, table: lancedb.Table): Promise<boolean> {
    const rows = await table.countRows();
    if (rows < (this.opts.vectorIndexMinRows ?? LANCE_VECTOR_INDEX_MIN_ROWS[name])) return false;
    const index = await vectorIndexOf(table, ANN_COLUMN[name]);
    if (!index) return true;
    if (name === 'pages') return false;
    if (index.partitions === undefined || index.metric !== 'dot') return true;
    return rows >= LANCE_IVF_REBUILD_GROWTH * index.partitions * (this.opts.ivfRowsPerPartition ?? LANCE_IVF_ROWS_PER_PARTITION);
  }

  /**
   * Builds the vector index when the table passes the threshold. Chunks: IVF_FLAT (dot) with
   * partitions for the row count, retrained once the table has grown LANCE_IVF_REBUILD_GROWTH-fold;
   * the new index gets a new name and the old one is dropped after, so searches stay indexed while
   * it builds (~12 s at 100k rows of 768-d on 2 cores, under 1 s at 10k). Page centroids: LanceDB's
   * default IVF_FLAT (dot), as before (not measured past the bench's 10k pages). Runs inside the
   * table's write queue.
   */
  private async maintainVectorIndex(name: TableName, table: lancedb.Table) {
    if (!(await this.vectorIndexNeedsBuild(name, table))) return;
    const column = ANN_COLUMN[name];
    if (name === 'pages') {
      await table.createIndex(column, { config: lancedb.Index.ivfFlat({ distanceType: 'dot' }) });
      return;
    }
    const old = await vectorIndexOf(table, column);
    const partitions = this.ivfPartitions(await table.countRows());
    const indexName = `${column}_ivf_flat_dot_p${partitions}`;
    if (old?.name === indexName) return;
    await table.createIndex(column, { config: lancedb.Index.ivfFlat({ distanceType: 'dot', numPartitions: partitions }), name: indexName });
    if (old) await table.dropIndex(old.name);
    await this.prewarm(table, indexName);
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
    if (this.closedFlag) return;
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
    // IVF_FLAT: full vectors in each partition, so distances stay exact and the build is cheap
    // enough to run inside a write (see LANCE_VECTOR_INDEX_MIN_ROWS for the figures).
    await this.maintainVectorIndex(name, table);
  }
}

/** `(manual_id = 'a' AND page IN (1, 2)) OR …` for the pages of a write. */
function pageKeysWhere(pages: ReadonlyArray<{ manualId: string; page: number }>): string {
  const byManual = new Map<string, number[]>();
  for (const p of pages) byManual.set(p.manualId, [...(byManual.get(p.manualId) ?? []), p.page]);
  return [...byManual].map(([m, nums]) => `(manual_id = ${sqlString(m)} AND page IN (${nums.join(', ')}))`).join(' OR ');
}

interface VectorIndexInfo {
  name: string;
  /** The distance it was trained with: queries must use the same. */
  metric: 'cosine' | 'dot' | 'l2';
  /** From the name this store gives its indexes; undefined for an index made otherwise. */
  partitions?: number;
}

async function vectorIndexOf(table: lancedb.Table, column: string): Promise<VectorIndexInfo | null> {
  const index = (await table.listIndices()).find((i) => i.columns.includes(column));
  if (!index) return null;
  const details = (index as { indexDetails?: { metric_type?: unknown } }).indexDetails;
  const metric = String(details?.metric_type ?? 'cosine').toLowerCase();
  const partitions = /_p(\d+)$/.exec(index.name)?.[1];
  return {
    name: index.name,
    metric: metric === 'dot' || metric === 'l2' ? metric : 'cosine',
    ...(partitions ? { partitions: Number(partitions) } : {}),
  };
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
    // splits "AR3350-P33M" into ar3350 + p33m and keeps "ACX7210" whole.
    ['text', () => lancedb.Index.fts({ withPosition: false })],
    ['id', () => lancedb.Index.btree()],
    ...scalar,
  ];
}

function toChunkHit(r: Row, score: number): ChunkHit {
  return storedChunkHit(r, r.id, score);
}

/** Opens (creating if needed) a LanceDB store in `dir`. Tables are created on the first upsert. */
export function openLanceStore(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
  return LanceStore.open(dir, opts);
}
