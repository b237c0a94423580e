/**
 * A library indexed with one embedder, then a worker started with another: the worker's start-up
 * check (prepareReembedding) and its jobs (claimNextReembed + reembedManual) re-embed it from the
 * text in the store. Real SQLite, real LanceDB, real embedders; nothing is mocked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptUpload } from '@/lib/manuals/service';
import { generateSampleManual } from '@/lib/sample';
import { getVectorStore, indexFingerprint, type Embedder, type MultiVectorEmbedder } from '@/lib/providers';
import { HashedNgramEmbedder } from '@/lib/providers/embeddings/hashed-ngrams';
import { LocalMultiVectorEmbedder, OFFLINE_MAX_VECTORS_PER_PAGE } from '@/lib/providers/multivector/local';
import { closeVectorStores } from '@/lib/providers/vectorstore';
import { VectorDimensionError } from '@/lib/providers/vectorstore/errors';
import type { CallOptions } from '@/lib/providers/types';
import { getDb } from '@/lib/store/db';
import { claimNextReembed, countStaleManuals } from '@/lib/store/jobs';
import { getManual, listPages } from '@/lib/store/manuals';
import { readCorpusRows } from '@/lib/store/corpus';
import { manuals } from '@/lib/store/tables';
import { manualDir, manualSourcePath } from './paths';
import { embeddingText, ingestManual } from './pipeline';
import { prepareReembedding, reembedManual } from './reembed';
import { closeIngestStack } from './testing/teardown';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

const embedders = (embedder: Embedder & HashedNgramEmbedder): { embedder: Embedder; multiVector: MultiVectorEmbedder } => ({
  embedder,
  multiVector: new LocalMultiVectorEmbedder(embedder, { maxVectorsPerPage: OFFLINE_MAX_VECTORS_PER_PAGE }),
});

/** The offline embedder with another hash seed, which also reports what the manual looks like while it embeds. */
class WatchedEmbedder extends HashedNgramEmbedder {
  seen: Array<{ status?: string; stage?: string | null; searchHits: number }> = [];
  constructor(
    private readonly manualId: () => string,
    options: ConstructorParameters<typeof HashedNgramEmbedder>[0],
  ) {
    super(options);
  }
  override async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    const m = await getManual(this.manualId());
    const hits = await (await getVectorStore()).bm25Search('fuse rating', { limit: 3, filter: { manualIds: [this.manualId()] } });
    this.seen.push({ status: m?.status, stage: m?.reembedStage, searchHits: hits.length });
    return super.embedDocuments(texts, opts);
  }
}

/** Score of the best dense hit for a chunk's own text embedded by `embedder`: ~1 when the index holds that embedder's vector. */
async function selfMatch(embedder: Embedder, chunk: { id: string; heading: string; text: string }) {
  const [vector] = await embedder.embedDocuments([embeddingText(chunk)]);
  const [hit] = await (await getVectorStore()).denseSearch(vector, { limit: 1 });
  return { id: hit?.id, score: hit?.score ?? 0 };
}

let manualId = '';
const first = embedders(new HashedNgramEmbedder({ seed: 7 }));

beforeAll(async () => {
  const { manual } = await acceptUpload(bytesOf((await generateSampleManual()).pdf), 'acme-hx200-manual.pdf', 'owner-a');
  manualId = manual.id;
  expect((await ingestManual(manualId, first))?.status).toBe('ready');
  // The re-embed reads only the store: without the PDF and the page images it cannot re-parse or re-render.
  fs.rmSync(manualSourcePath(manualId));
  fs.rmSync(path.join(manualDir(manualId), 'pages'), { recursive: true, force: true });
}, 180_000);

afterAll(closeIngestStack);

describe('re-embedding when the embedder changes', () => {
  it('records the fingerprint of the embedders that wrote a manual', async () => {
    expect((await getManual(manualId))?.indexFingerprint).toBe(indexFingerprint(first.embedder, first.multiVector));
    expect(first.embedder.fingerprint).toMatch(/^offline:hashed-ngrams@2:768:/);
  });

  it('re-embeds a library of the same vector size in place, staying searchable meanwhile', async () => {
    const { chunks } = await readCorpusRows([manualId]);
    const probe = chunks.find((c) => c.text.length > 80)!;
    expect(await selfMatch(first.embedder, probe)).toMatchObject({ id: probe.id });
    const before = await getManual(manualId);
    const counts = await (await getVectorStore()).count({ manualIds: [manualId] });

    // A restart: a new store handle, and a worker with other embedders (same size, another seed).
    await closeVectorStores();
    const watched = new WatchedEmbedder(() => manualId, { seed: 0 });
    const next = embedders(watched);
    const { fingerprint, stale } = await prepareReembedding(next);
    expect(fingerprint).not.toBe(before?.indexFingerprint);
    expect(stale).toBe(1);

    const id = await claimNextReembed('worker-b', fingerprint);
    expect(id).toBe(manualId);
    expect(await reembedManual(manualId, fingerprint, next, 'worker-b')).toBe('done');

    // While it ran, the manual stayed ready and searchable and showed the embedding stage.
    expect(watched.seen[0]).toEqual({ status: 'ready', stage: 'embedding', searchHits: expect.any(Number) });
    expect(watched.seen.every((s) => s.status === 'ready' && s.searchHits > 0)).toBe(true);

    const after = (await getManual(manualId))!;
    expect(after).toMatchObject({ status: 'ready', indexFingerprint: fingerprint, reembedStage: null, workerId: null, progressTotal: 0 });
    // Text untouched: the lexical index's cache key (updated_at) and the pages stay as they were.
    expect(after.updatedAt?.getTime()).toBe(before?.updatedAt?.getTime());
    expect((await listPages(manualId)).length).toBe(10);
    expect(await (await getVectorStore()).count({ manualIds: [manualId] })).toEqual(counts);
    // The index now holds the new embedder's vectors, not the old ones.
    const now = await selfMatch(next.embedder, probe);
    expect(now.id).toBe(probe.id);
    expect(now.score).toBeGreaterThan(0.999);
    expect((await selfMatch(first.embedder, probe)).score).toBeLessThan(0.99);
    expect(await countStaleManuals(fingerprint)).toBe(0);
    expect(await claimNextReembed('worker-b', fingerprint)).toBeUndefined();
  });

  it('replaces the dimension mismatch with an emptied index and a re-embed', async () => {
    await closeVectorStores();
    const small = embedders(new HashedNgramEmbedder({ dimensions: 256, tokenDimensions: 64 }));
    const query = await small.embedder.embedQuery('fuse rating');
    // What a search with the new embedder would meet without this path.
    await expect((await getVectorStore()).denseSearch(query, { limit: 3 })).rejects.toThrow(VectorDimensionError);

    const { fingerprint, stale } = await prepareReembedding(small);
    expect(stale).toBe(1);
    expect(await (await getVectorStore()).count()).toEqual({ chunks: 0, pages: 0 });
    expect(await claimNextReembed('worker-c', fingerprint)).toBe(manualId);
    expect(await reembedManual(manualId, fingerprint, small, 'worker-c')).toBe('done');

    const hits = await (await getVectorStore()).denseSearch(query, { limit: 3 });
    expect(hits.length).toBe(3);
    expect(await (await getVectorStore()).count({ manualIds: [manualId] })).toMatchObject({ pages: 10 });
    expect((await getManual(manualId))?.indexFingerprint).toBe(fingerprint);
  });

  it('takes over a re-embed whose worker died, once its lease has run out', async () => {
    const next = embedders(new HashedNgramEmbedder({ dimensions: 256, tokenDimensions: 64, seed: 3 }));
    const { fingerprint } = await prepareReembedding(next);
    expect(await claimNextReembed('worker-dead', fingerprint)).toBe(manualId);
    // Held by a live lease: nobody else takes it.
    expect(await claimNextReembed('worker-d', fingerprint)).toBeUndefined();
    expect((await getManual(manualId))?.reembedStage).toBe('embedding');
    // The dead worker's lease runs out.
    const db = await getDb();
    await db
      .update(manuals)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(manuals.id, manualId));
    expect(await claimNextReembed('worker-d', fingerprint)).toBe(manualId);
    expect(await reembedManual(manualId, fingerprint, next, 'worker-d')).toBe('done');
    expect((await getManual(manualId))?.indexFingerprint).toBe(fingerprint);
  });
});
