/**
 * Weaviate (self-hosted via docker compose, or Weaviate Cloud) through weaviate-client 3.12.
 *
 * Collections (names from a prefix, default "Manual"):
 *   ManualChunk  chunk_id, manual_id, page, heading, text, ocr, bboxes (JSON); named vector `dense`
 *                (self-provided, HNSW, cosine); BM25 over `text`.
 *   ManualPage   manual_id, page, text; named multi-vector `colbert` (self-provided, HNSW multivector,
 *                MaxSim; needs Weaviate ≥ 1.29).
 * Object ids are UUIDv5 of the chunk id / (manual, page), so an insert of the same key overwrites:
 * Weaviate's batch insert is an upsert. Vector sizes are written into the collection description,
 * so a changed embedder fails with both sizes named instead of a server error deep in a batch.
 *
 * Everything the adapter does with the client goes through the small WeaviateCollection surface
 * below, which tests replace with a recording fake (there is no Weaviate server in CI).
 */
import weaviate, {
  ApiKey,
  Filters,
  configure,
  generateUuid5,
  type CollectionConfigCreate,
  type ConnectToCustomOptions,
  type ConnectToLocalOptions,
  type ConnectToWeaviateCloudOptions,
  type FilterValue,
} from 'weaviate-client';
import { isLoopbackUrl } from '../../config';
import { maxSim } from '../multivector/maxsim';
import type { ChunkHit, ChunkRecord, HybridOptions, PageHit, PageRecord, SearchFilter, SearchOptions, VectorStore } from '../types';
import { VectorDimensionError, assertDimensions } from './errors';
import { normaliseFilter } from './filter';
import { DEFAULT_FUSION, clampAlpha } from './fusion';
import { VectorStoreAdapter } from './adapter';
import { byScore, checkLimit, checkManualId, l2normalize, prepareChunks, preparePages, storedChunkHit } from './records';

export const WEAVIATE_DENSE_VECTOR = 'dense';
export const WEAVIATE_MULTI_VECTOR = 'colbert';
export const WEAVIATE_DEFAULT_PREFIX = 'Manual';
/** Objects per insertMany call (one gRPC batch request). */
export const WEAVIATE_BATCH_SIZE = 200;
/** Weaviate's own default gRPC port; a custom (non-cloud) URL only gives the HTTP side. */
export const WEAVIATE_DEFAULT_GRPC_PORT = 50051;
/** Pages fetched (with their bags) per multi-vector search, as a multiple of limit, then re-scored exactly. */
const MULTIVECTOR_RESCORE_FACTOR = 2;
// UUIDv5 namespaces: chunk ids and page keys can never collide with each other.
const CHUNK_NAMESPACE = 'f3a1c4d2-6b7e-5f80-9a1b-2c3d4e5f6a70';
const PAGE_NAMESPACE = '0b9e8d7c-6a5f-5e4d-8c3b-2a1f0e9d8c7b';

const CHUNK_PROPERTIES = ['chunk_id', 'manual_id', 'page', 'heading', 'text', 'ocr', 'bboxes'] as const;

// ---- the client surface the adapter uses -------------------------------------------------------

export interface WeaviateObject {
  uuid?: string;
  properties: Record<string, unknown>;
  metadata?: { score?: number; distance?: number };
  vectors?: Record<string, number[] | number[][]>;
}
export interface WeaviateInsertObject {
  id: string;
  properties: Record<string, unknown>;
  vectors?: Record<string, number[] | number[][]>;
}
type QueryOptions = Record<string, unknown>;

/** The part of a weaviate-client `Collection` this adapter calls. */
export interface WeaviateCollection {
  data: {
    insertMany(objects: WeaviateInsertObject[]): Promise<{ hasErrors: boolean; errors: Record<number, { message: string }> }>;
    deleteMany(where: FilterValue): Promise<{ matches: number; failed: number; successful: number }>;
  };
  query: {
    nearVector(vector: number[] | number[][], opts: QueryOptions): Promise<{ objects: WeaviateObject[] }>;
    bm25(query: string, opts: QueryOptions): Promise<{ objects: WeaviateObject[] }>;
    hybrid(query: string, opts: QueryOptions): Promise<{ objects: WeaviateObject[] }>;
  };
  filter: {
    byProperty(name: string): {
      equal(value: string | number): FilterValue;
      containsAny(values: string[]): FilterValue;
      greaterOrEqual(value: number): FilterValue;
      lessOrEqual(value: number): FilterValue;
    };
  };
  aggregate: { overAll(opts?: { filters?: FilterValue }): Promise<{ totalCount: number }> };
  config: { get(): Promise<{ description?: string }> };
}

export interface WeaviateClientLike {
  collections: {
    exists(name: string): Promise<boolean>;
    create(config: CollectionConfigCreate<undefined, string, undefined>): Promise<unknown>;
    use(name: string): WeaviateCollection;
    delete(name: string): Promise<void>;
  };
  close(): Promise<void>;
}

// ---- connection --------------------------------------------------------------------------------

export type WeaviateConnectionPlan =
  | { kind: 'local'; options: ConnectToLocalOptions }
  | { kind: 'cloud'; url: string; options: ConnectToWeaviateCloudOptions }
  | { kind: 'custom'; options: ConnectToCustomOptions };

const TIMEOUTS = { init: 15, query: 30, insert: 120 };

/**
 * How to reach WEAVIATE_URL: a loopback URL is a local server (connectToLocal, gRPC on 50051),
 * a *.weaviate.cloud / *.weaviate.network URL is Weaviate Cloud (connectToWeaviateCloud with the
 * API key), anything else a self-hosted server by host/port (connectToCustom).
 */
export function planWeaviateConnection(url: string, apiKey?: string, grpcPort = WEAVIATE_DEFAULT_GRPC_PORT): WeaviateConnectionPlan {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const secure = u.protocol === 'https:';
  const authCredentials = apiKey ? new ApiKey(apiKey) : undefined;
  if (isLoopbackUrl(url)) {
    return { kind: 'local', options: { host, port: Number(u.port) || 8080, grpcPort, authCredentials, timeout: TIMEOUTS } };
  }
  if (/\.weaviate\.(cloud|network)$/i.test(host)) {
    return { kind: 'cloud', url: u.origin, options: { authCredentials, timeout: TIMEOUTS } };
  }
  return {
    kind: 'custom',
    options: {
      httpHost: host,
      httpPort: Number(u.port) || (secure ? 443 : 80),
      httpSecure: secure,
      httpPath: u.pathname !== '/' ? u.pathname.replace(/\/$/, '') : undefined,
      grpcHost: host,
      grpcPort,
      grpcSecure: secure,
      authCredentials,
      timeout: TIMEOUTS,
    },
  };
}

async function connectWeaviate(url: string, apiKey?: string, grpcPort?: number): Promise<WeaviateClientLike> {
  const plan = planWeaviateConnection(url, apiKey, grpcPort);
  try {
    const client =
      plan.kind === 'local'
        ? await weaviate.connectToLocal(plan.options)
        : plan.kind === 'cloud'
          ? await weaviate.connectToWeaviateCloud(plan.url, plan.options)
          : await weaviate.connectToCustom(plan.options);
    // The client's Collection type is generic over schema types; the adapter uses the plain subset.
    return client as unknown as WeaviateClientLike;
  } catch (err) {
    const host = new URL(url).host;
    throw new Error(
      `Cannot connect to Weaviate at ${host} (${plan.kind}): ${(err as Error).message}. ` +
        (plan.kind === 'local'
          ? 'Start it with `docker compose up -d weaviate`, or unset WEAVIATE_URL to use the embedded LanceDB store.'
          : 'Check WEAVIATE_URL and WEAVIATE_API_KEY.'),
      { cause: err },
    );
  }
}

// ---- schema --------------------------------------------------------------------------------------

type Kind = 'chunks' | 'pages';

export function collectionNames(prefix = WEAVIATE_DEFAULT_PREFIX): Record<Kind, string> {
  if (!/^[A-Z][A-Za-z0-9_]*$/.test(prefix)) throw new Error(`Weaviate collection prefix must start with a capital letter and be alphanumeric: ${prefix}`);
  return { chunks: `${prefix}Chunk`, pages: `${prefix}Page` };
}

const describeDims = (kind: Kind, dims: number) =>
  `Manual Copilot ${kind === 'chunks' ? 'chunks' : 'pages'}; ${kind === 'chunks' ? WEAVIATE_DENSE_VECTOR : WEAVIATE_MULTI_VECTOR} vectors: ${dims} dimensions`;

function dimsFromDescription(description?: string): number | undefined {
  const m = description?.match(/vectors: (\d+) dimensions/);
  return m ? Number(m[1]) : undefined;
}

/** The collection definitions, built with the client's own `configure` helpers. */
export function collectionConfig(kind: Kind, name: string, dims: number): CollectionConfigCreate<undefined, string, undefined> {
  const { dataType, tokenization, vectorDistances } = configure;
  if (kind === 'chunks') {
    return {
      name,
      description: describeDims(kind, dims),
      properties: [
        // `field` tokenization: ids match whole, never as words; not in BM25.
        { name: 'chunk_id', dataType: dataType.TEXT, tokenization: tokenization.FIELD, indexSearchable: false },
        { name: 'manual_id', dataType: dataType.TEXT, tokenization: tokenization.FIELD, indexSearchable: false },
        { name: 'page', dataType: dataType.INT, indexRangeFilters: true },
        { name: 'heading', dataType: dataType.TEXT, tokenization: tokenization.WORD },
        { name: 'text', dataType: dataType.TEXT, tokenization: tokenization.WORD },
        { name: 'ocr', dataType: dataType.BOOLEAN },
        { name: 'bboxes', dataType: dataType.TEXT, indexFilterable: false, indexSearchable: false },
      ],
      vectorizers: [
        configure.vectors.selfProvided({
          name: WEAVIATE_DENSE_VECTOR,
          vectorIndexConfig: configure.vectorIndex.hnsw({ distanceMetric: vectorDistances.COSINE }),
        }),
      ],
    };
  }
  return {
    name,
    description: describeDims(kind, dims),
    properties: [
      { name: 'manual_id', dataType: dataType.TEXT, tokenization: tokenization.FIELD, indexSearchable: false },
      { name: 'page', dataType: dataType.INT, indexRangeFilters: true },
      { name: 'text', dataType: dataType.TEXT, tokenization: tokenization.WORD },
    ],
    vectorizers: [
      // Multi-vector (ColBERT-style) HNSW with MaxSim aggregation: Weaviate ≥ 1.29.
      configure.multiVectors.selfProvided({
        name: WEAVIATE_MULTI_VECTOR,
        vectorIndexConfig: configure.vectorIndex.hnsw({ distanceMetric: vectorDistances.COSINE }),
      }),
    ],
  };
}

// ---- the store -----------------------------------------------------------------------------------

export interface WeaviateStoreOptions {
  /** WEAVIATE_URL; ignored when `client` is given. */
  url?: string;
  apiKey?: string;
  grpcPort?: number;
  /** An already connected client (or a fake in tests). */
  client?: WeaviateClientLike;
  /** Collection name prefix (tests use a random one). */
  collectionPrefix?: string;
  dimensions?: number;
  multiVectorDimensions?: number;
  batchSize?: number;
}

interface CollectionState {
  exists: boolean;
  dims?: number;
}

export class WeaviateStore extends VectorStoreAdapter implements VectorStore {
  readonly provider = 'weaviate' as const;
  readonly names: Record<Kind, string>;
  private readonly state: Partial<Record<Kind, CollectionState>> = {};

  protected readonly label = 'WeaviateStore';

  constructor(
    private readonly client: WeaviateClientLike,
    private readonly opts: Omit<WeaviateStoreOptions, 'client' | 'url' | 'apiKey'> = {},
  ) {
    super();
    this.names = collectionNames(opts.collectionPrefix);
  }

  // ---- writes -------------------------------------------------------------------------------

  async upsertChunks(chunks: ChunkRecord[]): Promise<void> {
    this.assertOpen();
    const rows = prepareChunks(chunks);
    if (rows.length === 0) return;
    await this.queue.run('chunks', async () => {
      const dims = (await this.known('chunks')).dims ?? this.opts.dimensions ?? rows[0].vector.length;
      assertDimensions(
        this.describe('chunks'),
        dims,
        rows.map((r) => r.vector),
      );
      const col = await this.ensureCollection('chunks', dims);
      await this.insertAll(
        col,
        'chunks',
        rows.map((c) => ({
          id: generateUuid5(c.id, CHUNK_NAMESPACE),
          properties: {
            chunk_id: c.id,
            manual_id: c.manualId,
            page: c.page,
            heading: c.heading ?? '',
            text: c.text ?? '',
            ocr: !!c.ocr,
            bboxes: JSON.stringify(c.bboxes ?? []),
          },
          vectors: { [WEAVIATE_DENSE_VECTOR]: Array.from(c.vector) },
        })),
      );
    });
  }

  async upsertPages(pages: PageRecord[]): Promise<void> {
    this.assertOpen();
    const prepared = preparePages(pages);
    if (prepared.length === 0) return;
    await this.queue.run('pages', async () => {
      const dims = (await this.known('pages')).dims ?? this.opts.multiVectorDimensions ?? prepared.find((p) => p.vectors.length)?.vectors[0].length;
      if (dims === undefined) return; // only blank pages and no collection yet: nothing searchable to store
      assertDimensions(
        this.describe('pages'),
        dims,
        prepared.flatMap((p) => p.vectors),
      );
      const col = await this.ensureCollection('pages', dims);
      await this.insertAll(
        col,
        'pages',
        prepared.map((p) => ({
          id: generateUuid5(`${p.manualId}\0${p.page}`, PAGE_NAMESPACE),
          properties: { manual_id: p.manualId, page: p.page, text: p.text },
          // A blank page has no bag: stored (it counts) but unreachable by MaxSim.
          ...(p.vectors.length ? { vectors: { [WEAVIATE_MULTI_VECTOR]: p.vectors.map((v) => Array.from(v)) } } : {}),
        })),
      );
    });
  }

  async deleteManual(manualId: string): Promise<void> {
    this.assertOpen();
    checkManualId(manualId);
    await Promise.all(
      (['chunks', 'pages'] as const).map((kind) =>
        this.queue.run(kind, async () => {
          if (!(await this.known(kind)).exists) return;
          const col = this.collection(kind);
          // deleteMany removes at most QUERY_MAXIMUM_RESULTS objects per call: repeat until none match.
          for (let round = 0; round < 1000; round++) {
            const res = await col.data.deleteMany(col.filter.byProperty('manual_id').equal(manualId));
            if (res.failed > 0) throw new Error(`Weaviate failed to delete ${res.failed} ${kind} of manual ${manualId}`);
            if (res.matches === 0 || res.successful === 0) return;
          }
        }),
      ),
    );
  }

  // ---- reads --------------------------------------------------------------------------------

  async denseSearch(vector: Float32Array, opts: SearchOptions): Promise<ChunkHit[]> {
    const limit = this.beginSearch(opts);
    const col = await this.readable('chunks', [vector]);
    if (!col || limit === 0) return [];
    const res = await col.query.nearVector(Array.from(vector), {
      targetVector: WEAVIATE_DENSE_VECTOR,
      limit,
      filters: this.where(col, opts.filter),
      returnProperties: [...CHUNK_PROPERTIES],
      returnMetadata: ['distance'],
    });
    opts.signal?.throwIfAborted();
    return res.objects.map((o) => toChunkHit(o, 1 - (o.metadata?.distance ?? 1))).sort(byScore);
  }

  async bm25Search(query: string, opts: SearchOptions): Promise<ChunkHit[]> {
    const limit = this.beginSearch(opts);
    if (typeof query !== 'string' || query.trim() === '' || limit === 0) return [];
    const col = await this.readable('chunks', []);
    if (!col) return [];
    const res = await col.query.bm25(query, this.keywordQuery(col, limit, opts.filter));
    opts.signal?.throwIfAborted();
    return res.objects.map((o) => toChunkHit(o, o.metadata?.score ?? 0)).sort(byScore);
  }

  async hybridSearch(query: string, vector: Float32Array, opts: HybridOptions): Promise<ChunkHit[]> {
    this.assertOpen();
    opts.signal?.throwIfAborted();
    // Weaviate needs keywords for the BM25 leg; without any, hybrid is the dense leg alone.
    if (typeof query !== 'string' || query.trim() === '') return this.denseSearch(vector, opts);
    const limit = checkLimit(opts.limit);
    const col = await this.readable('chunks', [vector]);
    if (!col || limit === 0) return [];
    const res = await col.query.hybrid(query, {
      vector: Array.from(vector),
      targetVector: WEAVIATE_DENSE_VECTOR,
      alpha: clampAlpha(opts.alpha),
      fusionType: (opts.fusion ?? DEFAULT_FUSION) === 'rrf' ? 'Ranked' : 'RelativeScore',
      ...this.keywordQuery(col, limit, opts.filter),
    });
    opts.signal?.throwIfAborted();
    return res.objects.map((o) => toChunkHit(o, o.metadata?.score ?? 0)).sort(byScore);
  }

  /** What a query with a keyword leg (BM25, hybrid) matches on and returns: the chunk text, scored. */
  private keywordQuery(col: WeaviateCollection, limit: number, filter: SearchFilter | undefined): QueryOptions {
    return { queryProperties: ['text'], limit, filters: this.where(col, filter), returnProperties: [...CHUNK_PROPERTIES], returnMetadata: ['score'] };
  }

  async multiVectorSearch(queryVectors: Float32Array[], opts: SearchOptions): Promise<PageHit[]> {
    const limit = this.beginSearch(opts);
    if (queryVectors.length === 0 || limit === 0) return [];
    const col = await this.readable('pages', queryVectors);
    if (!col) return [];
    const qs = queryVectors.map(l2normalize);
    const res = await col.query.nearVector(
      qs.map((v) => Array.from(v)),
      {
        targetVector: WEAVIATE_MULTI_VECTOR,
        limit: limit * MULTIVECTOR_RESCORE_FACTOR,
        filters: this.where(col, opts.filter),
        returnProperties: ['manual_id', 'page'],
        includeVector: [WEAVIATE_MULTI_VECTOR],
      },
    );
    opts.signal?.throwIfAborted();
    // Scores are recomputed from the returned bags: the same MaxSim (Σ max cosine) as LanceDB,
    // whatever distance convention the server reports for multi-vectors.
    return res.objects
      .map((o) => {
        const bag = (o.vectors?.[WEAVIATE_MULTI_VECTOR] ?? []) as number[][];
        return {
          manualId: String(o.properties.manual_id),
          page: Number(o.properties.page),
          score: maxSim(
            qs,
            bag.map((v) => Float32Array.from(v)),
          ),
        };
      })
      .sort(byScore)
      .slice(0, limit);
  }

  async count(filter?: SearchFilter): Promise<{ chunks: number; pages: number }> {
    this.assertOpen();
    const total = async (kind: Kind) => {
      if (!(await this.known(kind)).exists) return 0;
      const col = this.collection(kind);
      const filters = this.where(col, filter);
      return (await col.aggregate.overAll(filters ? { filters } : undefined)).totalCount;
    };
    const [chunks, pages] = await Promise.all([total('chunks'), total('pages')]);
    return { chunks, pages };
  }

  /** Deletes both collections (re-index with another embedder; tests). */
  async drop(): Promise<void> {
    this.assertOpen();
    await this.queue.idle();
    for (const kind of ['chunks', 'pages'] as const) {
      if (await this.client.collections.exists(this.names[kind])) await this.client.collections.delete(this.names[kind]);
      delete this.state[kind];
    }
  }

  async close(): Promise<void> {
    if (this.closedFlag) return;
    this.closedFlag = true;
    await this.queue.idle();
    await this.client.close();
  }

  // ---- internals ----------------------------------------------------------------------------

  private describe(kind: Kind): string {
    return `Weaviate collection "${this.names[kind]}" (vector ${kind === 'chunks' ? WEAVIATE_DENSE_VECTOR : WEAVIATE_MULTI_VECTOR})`;
  }

  private collection(kind: Kind): WeaviateCollection {
    return this.client.collections.use(this.names[kind]);
  }

  /** Whether the collection exists and its vector size; "missing" is re-checked each time. */
  private async known(kind: Kind): Promise<CollectionState> {
    const cached = this.state[kind];
    if (cached?.exists) return cached;
    const exists = await this.client.collections.exists(this.names[kind]);
    const state: CollectionState = { exists };
    if (exists) state.dims = dimsFromDescription((await this.collection(kind).config.get()).description);
    this.state[kind] = state;
    return state;
  }

  private async readable(kind: Kind, vectors: ArrayLike<number>[]): Promise<WeaviateCollection | null> {
    const state = await this.known(kind);
    const expected = state.dims ?? (kind === 'chunks' ? this.opts.dimensions : this.opts.multiVectorDimensions);
    if (expected !== undefined) assertDimensions(this.describe(kind), expected, vectors);
    return state.exists ? this.collection(kind) : null;
  }

  /** Called inside the kind's write queue. */
  private async ensureCollection(kind: Kind, dims: number): Promise<WeaviateCollection> {
    const state = await this.known(kind);
    if (!state.exists) {
      try {
        await this.client.collections.create(collectionConfig(kind, this.names[kind], dims));
      } catch (err) {
        // Another process may have created it meanwhile; anything else is a real failure.
        if (!(await this.client.collections.exists(this.names[kind]))) throw err;
      }
      delete this.state[kind];
      const created = await this.known(kind);
      if (created.dims !== undefined && created.dims !== dims) throw new VectorDimensionError(this.describe(kind), created.dims, dims);
    } else if (state.dims !== undefined && state.dims !== dims) {
      throw new VectorDimensionError(this.describe(kind), state.dims, dims);
    }
    return this.collection(kind);
  }

  private async insertAll(col: WeaviateCollection, kind: Kind, objects: WeaviateInsertObject[]) {
    const size = this.opts.batchSize ?? WEAVIATE_BATCH_SIZE;
    for (let i = 0; i < objects.length; i += size) {
      const res = await col.data.insertMany(objects.slice(i, i + size));
      if (res.hasErrors) {
        const errors = Object.values(res.errors);
        throw new Error(`Weaviate rejected ${errors.length} of ${Math.min(size, objects.length - i)} ${kind}: ${errors[0]?.message ?? 'unknown error'}`);
      }
    }
  }

  private where(col: WeaviateCollection, filter?: SearchFilter): FilterValue | undefined {
    const f = normaliseFilter(filter);
    const parts: FilterValue[] = [];
    if (f.manualIds) parts.push(col.filter.byProperty('manual_id').containsAny(f.manualIds));
    if (f.from !== undefined) parts.push(col.filter.byProperty('page').greaterOrEqual(f.from));
    if (f.to !== undefined) parts.push(col.filter.byProperty('page').lessOrEqual(f.to));
    if (parts.length === 0) return undefined;
    return parts.length === 1 ? parts[0] : Filters.and(...parts);
  }
}

function toChunkHit(o: WeaviateObject, score: number): ChunkHit {
  return storedChunkHit(o.properties, o.properties.chunk_id, score);
}

/** Connects (or wraps a given client) and returns the store; collections are created on first upsert. */
export async function openWeaviateStore(opts: WeaviateStoreOptions): Promise<WeaviateStore> {
  const { client, url, apiKey, grpcPort, ...rest } = opts;
  if (client) return new WeaviateStore(client, rest);
  if (!url) throw new Error('openWeaviateStore needs a url (WEAVIATE_URL) or a client');
  return new WeaviateStore(await connectWeaviate(url, apiKey, grpcPort), rest);
}
