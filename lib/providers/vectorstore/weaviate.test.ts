import weaviate, { type FilterValue } from 'weaviate-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { maxSim } from '../multivector/maxsim';
import { SUITE_DIMS, HOSTILE_MANUAL, axis, suiteChunks, suitePages, mix } from './testing/vector-store-suite';
import { VectorDimensionError } from './errors';
import { l2normalize } from './records';
import {
  WeaviateStore,
  collectionConfig,
  openWeaviateStore,
  planWeaviateConnection,
  type WeaviateClientLike,
  type WeaviateCollection,
  type WeaviateInsertObject,
  type WeaviateObject,
} from './weaviate';

// ---- (b) without a server: what the adapter asks of the client ---------------------------------

// The real client is used for what needs no server (its filter builder, its schema
// serialisation); its REST calls go to this stub. The gRPC side (queries, batches) is never
// reached: the adapter's calls to it are checked on the recording fake below.
let schemaPosts: Array<{ url: string; body: Record<string, unknown> }> = [];
beforeAll(() => {
  vi.stubGlobal('fetch', async (url: string | URL, init?: RequestInit) => {
    const u = String(url);
    if (init?.method === 'POST' && u.endsWith('/v1/schema')) {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      schemaPosts.push({ url: u, body });
      return Response.json(body);
    }
    if (u.endsWith('/v1/meta')) return Response.json({ version: '1.32.4', modules: {} });
    return new Response('not found', { status: 404 });
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

/** The client's real filter builder (pure: building filters needs no server). */
let realFilter: WeaviateCollection['filter'];
let filterClient: Awaited<ReturnType<typeof weaviate.connectToLocal>>;
beforeAll(async () => {
  filterClient = await weaviate.connectToLocal({ skipInitChecks: true });
  realFilter = filterClient.collections.use('Any').filter as unknown as WeaviateCollection['filter'];
});
afterAll(async () => {
  await filterClient?.close();
});

type Call = { method: string; args: unknown[] };

class RecordingCollection implements WeaviateCollection {
  calls: Call[] = [];
  results: Partial<Record<'nearVector' | 'bm25' | 'hybrid', WeaviateObject[]>> = {};
  insertErrors: Record<number, { message: string }> = {};
  deleteMatches: number[] = [];
  totalCount = 0;
  constructor(public description?: string) {}
  private record(method: string, ...args: unknown[]) {
    this.calls.push({ method, args });
  }
  named(method: string) {
    return this.calls.filter((c) => c.method === method);
  }
  filter = realFilter;
  data = {
    insertMany: async (objects: WeaviateInsertObject[]) => {
      this.record('insertMany', objects);
      return { hasErrors: Object.keys(this.insertErrors).length > 0, errors: this.insertErrors };
    },
    deleteMany: async (where: FilterValue) => {
      this.record('deleteMany', where);
      const matches = this.deleteMatches.shift() ?? 0;
      return { matches, successful: matches, failed: 0 };
    },
  };
  query = {
    nearVector: async (vector: number[] | number[][], opts: Record<string, unknown>) => {
      this.record('nearVector', vector, opts);
      return { objects: this.results.nearVector ?? [] };
    },
    bm25: async (query: string, opts: Record<string, unknown>) => {
      this.record('bm25', query, opts);
      return { objects: this.results.bm25 ?? [] };
    },
    hybrid: async (query: string, opts: Record<string, unknown>) => {
      this.record('hybrid', query, opts);
      return { objects: this.results.hybrid ?? [] };
    },
  };
  aggregate = {
    overAll: async (opts?: { filters?: FilterValue }) => {
      this.record('overAll', opts);
      return { totalCount: this.totalCount };
    },
  };
  config = { get: async () => ({ description: this.description }) };
}

class RecordingClient implements WeaviateClientLike {
  readonly collectionsByName = new Map<string, RecordingCollection>();
  readonly created: Array<Parameters<WeaviateClientLike['collections']['create']>[0]> = [];
  closed = false;
  collections = {
    exists: async (name: string) => this.collectionsByName.has(name),
    create: async (config: Parameters<WeaviateClientLike['collections']['create']>[0]) => {
      this.created.push(config);
      this.collectionsByName.set(config.name, new RecordingCollection(config.description));
    },
    use: (name: string) => {
      const c = this.collectionsByName.get(name);
      if (!c) throw new Error(`test: collection ${name} was never created`);
      return c;
    },
    delete: async (name: string) => {
      this.collectionsByName.delete(name);
    },
  };
  async close() {
    this.closed = true;
  }
  /** A collection that already exists on the "server", as created by an earlier run. */
  existing(name: string, dims: number, kind: 'chunks' | 'pages' = 'chunks') {
    const c = new RecordingCollection(collectionConfig(kind, name, dims).description);
    this.collectionsByName.set(name, c);
    return c;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const chunkObject = (id: string, props: Record<string, unknown>, distance?: number, score?: number): WeaviateObject => ({
  uuid: '00000000-0000-5000-8000-000000000000',
  properties: { chunk_id: id, manual_id: 'm-alpha', page: 2, heading: 'H', text: `text of ${id}`, ocr: true, bboxes: '[{"x":1,"y":2,"w":3,"h":4}]', ...props },
  metadata: { distance, score },
});

describe('Weaviate connection plan', () => {
  it('local URL → connectToLocal with host, port and gRPC 50051', () => {
    const plan = planWeaviateConnection('http://localhost:8080');
    expect(plan).toMatchObject({ kind: 'local', options: { host: 'localhost', port: 8080, grpcPort: 50051 } });
    expect(plan.options.authCredentials).toBeUndefined();
    expect(planWeaviateConnection('http://127.0.0.1:9090', 'k')).toMatchObject({ kind: 'local', options: { host: '127.0.0.1', port: 9090 } });
  });

  it('Weaviate Cloud URL → connectToWeaviateCloud with the API key', () => {
    const plan = planWeaviateConnection('https://abc123.c0.europe-west3.gcp.weaviate.cloud', 'secret');
    expect(plan.kind).toBe('cloud');
    if (plan.kind !== 'cloud') throw new Error();
    expect(plan.url).toBe('https://abc123.c0.europe-west3.gcp.weaviate.cloud');
    expect(plan.options.authCredentials).toBeInstanceOf(weaviate.ApiKey);
    expect((plan.options.authCredentials as InstanceType<typeof weaviate.ApiKey>).apiKey).toBe('secret');
  });

  it('any other host → connectToCustom from the URL (TLS follows the scheme)', () => {
    expect(planWeaviateConnection('https://vectors.example.com/weaviate/', 'k')).toMatchObject({
      kind: 'custom',
      options: {
        httpHost: 'vectors.example.com',
        httpPort: 443,
        httpSecure: true,
        httpPath: '/weaviate',
        grpcHost: 'vectors.example.com',
        grpcPort: 50051,
        grpcSecure: true,
      },
    });
    expect(planWeaviateConnection('http://10.0.0.5:8081', undefined, 50052)).toMatchObject({
      kind: 'custom',
      options: { httpHost: '10.0.0.5', httpPort: 8081, httpSecure: false, grpcPort: 50052 },
    });
  });
});

describe('Weaviate collection schema (through the real client, REST captured)', () => {
  let posts: typeof schemaPosts;
  beforeEach(() => {
    posts = schemaPosts = [];
  });

  it('chunks: properties with the right tokenization and a cosine HNSW named vector `dense`', async () => {
    const client = await weaviate.connectToLocal({ skipInitChecks: true });
    await client.collections.create(collectionConfig('chunks', 'ManualChunk', 768));
    await client.close();
    expect(posts).toHaveLength(1);
    const body = posts[0].body as {
      class: string;
      description: string;
      properties: Array<Record<string, unknown>>;
      vectorConfig: Record<string, Record<string, unknown>>;
    };
    expect(body.class).toBe('ManualChunk');
    expect(body.description).toMatch(/768 dimensions/);
    const props = Object.fromEntries(body.properties.map((p) => [p.name, p]));
    expect(Object.keys(props).sort()).toEqual(['bboxes', 'chunk_id', 'heading', 'manual_id', 'ocr', 'page', 'text']);
    expect(props.text).toMatchObject({ dataType: ['text'], tokenization: 'word' });
    expect(props.manual_id).toMatchObject({ dataType: ['text'], tokenization: 'field', indexSearchable: false });
    expect(props.chunk_id).toMatchObject({ tokenization: 'field', indexSearchable: false });
    expect(props.page).toMatchObject({ dataType: ['int'], indexRangeFilters: true });
    expect(props.ocr).toMatchObject({ dataType: ['boolean'] });
    expect(props.bboxes).toMatchObject({ indexFilterable: false, indexSearchable: false });
    expect(Object.keys(body.vectorConfig)).toEqual(['dense']);
    expect(body.vectorConfig.dense).toMatchObject({
      vectorIndexType: 'hnsw',
      vectorIndexConfig: { distance: 'cosine' },
      vectorizer: { none: {} },
    });
    expect(body.vectorConfig.dense.vectorIndexConfig).not.toHaveProperty('multivector');
  });

  it('pages: a multi-vector named vector `colbert` (MaxSim HNSW)', async () => {
    const client = await weaviate.connectToLocal({ skipInitChecks: true });
    await client.collections.create(collectionConfig('pages', 'ManualPage', 128));
    await client.close();
    const body = posts[0].body as { class: string; properties: Array<{ name: string }>; vectorConfig: Record<string, Record<string, unknown>> };
    expect(body.class).toBe('ManualPage');
    expect(body.properties.map((p) => p.name).sort()).toEqual(['manual_id', 'page', 'text']);
    expect(body.vectorConfig.colbert).toMatchObject({
      vectorIndexType: 'hnsw',
      vectorIndexConfig: { distance: 'cosine', multivector: { enabled: true } },
      vectorizer: { none: {} },
    });
  });
});

describe('WeaviateStore requests (recording fake of the collection API)', () => {
  const open = (client: RecordingClient, opts: { batchSize?: number } = {}) => new WeaviateStore(client, opts);

  it('creates the chunks collection once, from collectionConfig, sized by the first vectors', async () => {
    const client = new RecordingClient();
    const store = open(client);
    await store.upsertChunks(suiteChunks());
    await store.upsertChunks(suiteChunks().slice(0, 2));
    expect(client.created).toEqual([collectionConfig('chunks', 'ManualChunk', SUITE_DIMS)]);
  });

  it('inserts chunks in batches with properties and the `dense` named vector as plain arrays', async () => {
    const client = new RecordingClient();
    const store = open(client, { batchSize: 3 });
    const chunks = suiteChunks();
    await store.upsertChunks(chunks);
    const inserts = client.collections.use('ManualChunk') as RecordingCollection;
    const batches = inserts.named('insertMany').map((c) => c.args[0] as WeaviateInsertObject[]);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 2]);
    const objects = batches.flat();
    expect(objects[1]).toEqual({
      id: expect.stringMatching(UUID),
      properties: {
        chunk_id: 'a2',
        manual_id: 'm-alpha',
        page: 2,
        heading: 'Power > Regulators',
        text: chunks[1].text,
        ocr: true,
        bboxes: JSON.stringify(chunks[1].bboxes),
      },
      vectors: { dense: Array.from(chunks[1].vector) },
    });
    expect(Array.isArray(objects[1].vectors!.dense)).toBe(true);
    expect(new Set(objects.map((o) => o.id)).size).toBe(objects.length);
    // Deterministic ids: the same chunk id maps to the same object, so a re-insert overwrites.
    await store.upsertChunks([chunks[1]]);
    expect((inserts.named('insertMany').at(-1)!.args[0] as WeaviateInsertObject[])[0].id).toBe(objects[1].id);
  });

  it('reports rejected objects and refuses vectors of another size before sending anything', async () => {
    const client = new RecordingClient();
    const col = client.existing('ManualChunk', 768);
    const store = open(client);
    await expect(store.upsertChunks(suiteChunks())).rejects.toEqual(expect.objectContaining({ name: 'VectorDimensionError', expected: 768, actual: 8 }));
    await expect(store.denseSearch(axis(0), { limit: 3 })).rejects.toBeInstanceOf(VectorDimensionError);
    expect(col.calls).toEqual([]);

    const ok = new RecordingClient();
    const good = ok.existing('ManualChunk', 8);
    good.insertErrors = { 0: { message: 'vector lengths don\u2019t match' } };
    await expect(open(ok).upsertChunks(suiteChunks().slice(0, 1))).rejects.toThrow(/rejected 1 of 1 chunks: vector lengths/);
  });

  it('dense search: nearVector on `dense` with filters built by the client, score = 1 - distance', async () => {
    const client = new RecordingClient();
    const col = client.existing('ManualChunk', 8);
    col.results.nearVector = [chunkObject('a2', {}, 0.25)];
    const hits = await open(client).denseSearch(axis(1), { limit: 4, filter: { manualIds: ['m-alpha', HOSTILE_MANUAL], pages: { from: 2, to: 5 } } });
    const [call] = col.named('nearVector');
    expect(call.args[0]).toEqual(Array.from(axis(1)));
    expect(call.args[1]).toMatchObject({ targetVector: 'dense', limit: 4, returnMetadata: ['distance'] });
    expect(JSON.parse(JSON.stringify((call.args[1] as { filters: unknown }).filters))).toEqual({
      operator: 'And',
      value: null,
      filters: [
        { operator: 'ContainsAny', target: { property: 'manual_id' }, value: ['m-alpha', HOSTILE_MANUAL] },
        { operator: 'GreaterThanEqual', target: { property: 'page' }, value: 2 },
        { operator: 'LessThanEqual', target: { property: 'page' }, value: 5 },
      ],
    });
    expect(hits).toEqual([
      { id: 'a2', manualId: 'm-alpha', page: 2, heading: 'H', text: 'text of a2', ocr: true, bboxes: [{ x: 1, y: 2, w: 3, h: 4 }], score: 0.75 },
    ]);
    // One condition is passed alone, no filter at all is passed as undefined.
    await open(client).denseSearch(axis(1), { limit: 1, filter: { manualIds: ['x'] } });
    expect((col.named('nearVector')[1].args[1] as { filters: FilterValue }).filters).toMatchObject({ operator: 'ContainsAny', value: ['x'] });
    await open(client).denseSearch(axis(1), { limit: 1 });
    expect((col.named('nearVector')[2].args[1] as { filters?: unknown }).filters).toBeUndefined();
  });

  it('BM25: bm25 over `text`, scores from metadata, blank queries never sent', async () => {
    const client = new RecordingClient();
    const col = client.existing('ManualChunk', 8);
    col.results.bm25 = [chunkObject('b', {}, undefined, 1.5), chunkObject('a', {}, undefined, 3.2)];
    const hits = await open(client).bm25Search(`it's "ACX7210"; DROP`, { limit: 5 });
    expect(col.named('bm25')[0].args).toEqual([
      `it's "ACX7210"; DROP`,
      expect.objectContaining({ queryProperties: ['text'], limit: 5, returnMetadata: ['score'] }),
    ]);
    expect(hits.map((h) => [h.id, h.score])).toEqual([
      ['a', 3.2],
      ['b', 1.5],
    ]);
    expect(await open(client).bm25Search('  ', { limit: 5 })).toEqual([]);
    expect(col.named('bm25')).toHaveLength(1);
  });

  it('hybrid: alpha (default 0.3, clamped), fusion type, the dense named vector and the query', async () => {
    const client = new RecordingClient();
    const col = client.existing('ManualChunk', 8);
    col.results.hybrid = [chunkObject('a2', {}, undefined, 0.8)];
    const store = open(client);
    const hits = await store.hybridSearch('AR3350', axis(2), { limit: 5, filter: { pages: { from: 3 } } });
    expect(hits.map((h) => [h.id, h.score])).toEqual([['a2', 0.8]]);
    const [first] = col.named('hybrid');
    expect(first.args[0]).toBe('AR3350');
    expect(first.args[1]).toMatchObject({
      alpha: 0.3,
      fusionType: 'RelativeScore',
      vector: Array.from(axis(2)),
      targetVector: 'dense',
      queryProperties: ['text'],
      limit: 5,
      filters: { operator: 'GreaterThanEqual', value: 3 },
    });
    await store.hybridSearch('AR3350', axis(2), { limit: 5, alpha: 0.8, fusion: 'rrf' });
    expect(col.named('hybrid')[1].args[1]).toMatchObject({ alpha: 0.8, fusionType: 'Ranked' });
    await store.hybridSearch('AR3350', axis(2), { limit: 5, alpha: 4 });
    expect(col.named('hybrid')[2].args[1]).toMatchObject({ alpha: 1 });
    // No keywords: the dense leg alone.
    await store.hybridSearch(' ', axis(2), { limit: 5 });
    expect(col.named('hybrid')).toHaveLength(3);
    expect(col.named('nearVector')).toHaveLength(1);
  });

  it('multi-vector: a 2-D query on `colbert`, bags fetched and re-scored by MaxSim', async () => {
    const client = new RecordingClient();
    const col = client.existing('ManualPage', 8, 'pages');
    const bags: Record<string, number[][]> = {
      p1: [Array.from(axis(0)), Array.from(axis(1))],
      p2: [Array.from(axis(2)), Array.from(axis(3))],
      p3: [Array.from(mix([2, 1], [5, 1]))],
    };
    // The server's order is not trusted: the adapter ranks by its own MaxSim.
    col.results.nearVector = ['p3', 'p1', 'p2'].map((k) => ({
      properties: { manual_id: 'm', page: Number(k.slice(1)) },
      vectors: { colbert: bags[k] },
    }));
    const query = [mix([2, 3], [0, 0.1]), axis(3)];
    const hits = await open(client).multiVectorSearch(query, { limit: 2, filter: { manualIds: ['m'] } });
    const [call] = col.named('nearVector');
    const sent = call.args[0] as number[][];
    expect(sent).toHaveLength(2);
    expect(Array.isArray(sent[0])).toBe(true);
    expect(sent[0]).toEqual(Array.from(l2normalize(query[0])));
    expect(call.args[1]).toMatchObject({ targetVector: 'colbert', limit: 4, includeVector: ['colbert'], filters: { operator: 'ContainsAny', value: ['m'] } });
    const qn = query.map(l2normalize);
    const expected = ['p1', 'p2', 'p3']
      .map((k) => ({
        page: Number(k.slice(1)),
        score: maxSim(
          qn,
          bags[k].map((v) => Float32Array.from(v)),
        ),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 2);
    expect(hits.map((h) => h.page)).toEqual(expected.map((e) => e.page));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].score, 6));
    expect(hits[0].page).toBe(2);
  });

  it('pages: created as a multi-vector collection, bags normalised, blank pages sent without vectors', async () => {
    const client = new RecordingClient();
    const store = open(client);
    const pages = suitePages();
    pages[0] = { ...pages[0], vectors: [Float32Array.from([3, 4, 0, 0, 0, 0, 0, 0])] };
    await store.upsertPages([...pages, { manualId: 'm-beta', page: 7, text: '', vectors: [] }]);
    expect(client.created).toEqual([collectionConfig('pages', 'ManualPage', SUITE_DIMS)]);
    const objects = (client.collections.use('ManualPage') as RecordingCollection).named('insertMany').flatMap((c) => c.args[0] as WeaviateInsertObject[]);
    expect(objects).toHaveLength(7);
    expect(objects[0]).toEqual({
      id: expect.stringMatching(UUID),
      properties: { manual_id: 'm-alpha', page: 1, text: 'ACX7210 display' },
      vectors: { colbert: [Array.from(Float32Array.from([0.6, 0.8, 0, 0, 0, 0, 0, 0]))] },
    });
    expect(objects[6]).toEqual({ id: expect.stringMatching(UUID), properties: { manual_id: 'm-beta', page: 7, text: '' } });
  });

  it('deleteManual: deleteMany by manual_id until nothing matches, on both collections', async () => {
    const client = new RecordingClient();
    const chunks = client.existing('ManualChunk', 8);
    const pages = client.existing('ManualPage', 8, 'pages');
    chunks.deleteMatches = [10_000, 42, 0];
    pages.deleteMatches = [3, 0];
    await open(client).deleteManual(HOSTILE_MANUAL);
    expect(chunks.named('deleteMany')).toHaveLength(3);
    expect(pages.named('deleteMany')).toHaveLength(2);
    expect(chunks.named('deleteMany')[0].args[0]).toMatchObject({ operator: 'Equal', target: { property: 'manual_id' }, value: HOSTILE_MANUAL });
    // Nothing stored yet: nothing to call.
    const empty = new RecordingClient();
    await open(empty).deleteManual('m');
    expect(empty.created).toEqual([]);
  });

  it('count: aggregate.overAll with the filter; missing collections count 0', async () => {
    const client = new RecordingClient();
    const chunks = client.existing('ManualChunk', 8);
    chunks.totalCount = 12;
    expect(await open(client).count({ manualIds: ['m-alpha'] })).toEqual({ chunks: 12, pages: 0 });
    expect(chunks.named('overAll')[0].args[0]).toMatchObject({ filters: { operator: 'ContainsAny', value: ['m-alpha'] } });
    await open(client).count();
    expect(chunks.named('overAll')[1].args[0]).toBeUndefined();
  });

  it('an empty server: searches return [] without querying, close closes the client', async () => {
    const client = new RecordingClient();
    const store = open(client);
    expect(await store.denseSearch(axis(0), { limit: 3 })).toEqual([]);
    expect(await store.bm25Search('pump', { limit: 3 })).toEqual([]);
    expect(await store.hybridSearch('pump', axis(0), { limit: 3 })).toEqual([]);
    expect(await store.multiVectorSearch([axis(0)], { limit: 3 })).toEqual([]);
    expect(await store.count()).toEqual({ chunks: 0, pages: 0 });
    await store.close();
    expect(client.closed).toBe(true);
    await expect(store.count()).rejects.toThrow(/closed/);
  });

  it('openWeaviateStore needs a URL or a client, and uses custom collection names', async () => {
    await expect(openWeaviateStore({})).rejects.toThrow(/url/);
    const store = await openWeaviateStore({ client: new RecordingClient(), collectionPrefix: 'Eval' });
    expect(store.names).toEqual({ chunks: 'EvalChunk', pages: 'EvalPage' });
    await expect(openWeaviateStore({ client: new RecordingClient(), collectionPrefix: 'bad name' })).rejects.toThrow(/prefix/);
  });
});
