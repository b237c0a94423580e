/**
 * Faults in the middle of an ingest. Each one hits a real component: the real LanceDB
 * store wrapped so that one write throws, a real SQLite trigger that aborts the chunk inserts, a
 * real HTTP embedding server that fails. Every time the manual must end `failed` with a clear
 * reason and nothing of it left behind (vectors, rows, page images) except its source PDF; a
 * manual ingested before stays intact and searchable; uploading the file again then succeeds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleManual } from '@/lib/sample';
import { getEmbedder, getVectorStore } from '@/lib/providers';
import { OpenAICompatibleEmbedder } from '@/lib/providers/embeddings/openai-compatible';
import type { VectorStore } from '@/lib/providers/types';
import { acceptUpload } from '@/lib/manuals/service';
import { getDb } from '@/lib/store/db';
import { getManual, searchableManualIds } from '@/lib/store/manuals';
import type { OcrEngine } from './ocr';
import { embeddingsReply, openaiErrorReply, startFaultServer } from '@/test/fault-server';
import { ingestManual } from './pipeline';
import { manualDir, manualSourcePath } from './paths';
import { closeIngestStack } from './testing/teardown';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** Words of the sample's fuse rating plate (page 5) and spec pages: what a search must not find. */
const QUERY = 'fuse rating supply voltage error code';

let samplePdf: Uint8Array;
let otherId: string;
let otherChunkIds: string[];

/** Every chunk id of a manual in the store: a dense query restricted to it, above its size. */
async function storedChunkIds(manualId: string): Promise<string[]> {
  const vector = await (await getEmbedder()).embedQuery(QUERY);
  const hits = await (await getVectorStore()).denseSearch(vector, { limit: 1000, filter: { manualIds: [manualId] } });
  return hits.map((h) => h.id).sort();
}

/** A different file with the same pages: the sample with `n` bytes of trailing newlines. */
const variant = (n: number) => new Uint8Array([...samplePdf, ...new Array<number>(n).fill(0x0a)]);

beforeAll(async () => {
  samplePdf = (await generateSampleManual()).pdf;
  // The manual ingested before the faults: it must come through every one of them untouched.
  const { manual } = await acceptUpload(bytesOf(samplePdf), 'other-manual.pdf', 'owner-a');
  otherId = manual.id;
  expect((await ingestManual(otherId))?.status).toBe('ready');
  otherChunkIds = await storedChunkIds(otherId);
  expect(otherChunkIds.length).toBeGreaterThan(10);
}, 180_000);

afterAll(closeIngestStack);

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const { manual, duplicate } = await acceptUpload(bytesOf(bytes), name, 'owner-a');
  expect(duplicate).toBe(false);
  expect(manual.status).toBe('queued');
  return manual.id;
}

async function sqliteRows(manualId: string): Promise<{ pages: number; chunks: number }> {
  const db = await getDb();
  const count = async (table: 'pages' | 'chunks') =>
    Number((await db.run(sql`select count(*) as n from ${sql.identifier(table)} where manual_id = ${manualId}`)).rows[0].n);
  return { pages: await count('pages'), chunks: await count('chunks') };
}

/** Nothing of the manual is left but its row (failed) and its source PDF. */
async function expectRolledBack(manualId: string) {
  const store = await getVectorStore();
  expect(await store.count({ manualIds: [manualId] })).toEqual({ chunks: 0, pages: 0 });
  // Searched too, not only counted: no hit of it anywhere in the store.
  const hits = await store.bm25Search(QUERY, { limit: 100 });
  expect(hits.length).toBeGreaterThan(0);
  expect(hits.filter((h) => h.manualId === manualId)).toEqual([]);
  expect(await sqliteRows(manualId)).toEqual({ pages: 0, chunks: 0 });
  // Searchable through no page: the text pass's rows went with the rest.
  expect((await getManual(manualId))?.searchablePages).toBe(0);
  expect(await searchableManualIds()).not.toContain(manualId);
  expect(fs.existsSync(path.join(manualDir(manualId), 'pages'))).toBe(false);
  expect(fs.existsSync(path.join(manualDir(manualId), 'thumbs'))).toBe(false);
  expect(fs.readdirSync(manualDir(manualId))).toEqual(['source.pdf']);
  expect(fs.statSync(manualSourcePath(manualId)).size).toBeGreaterThan(1000);
}

/** The manual ingested before the fault is still ready, complete and found by the same search. */
async function expectOtherIntact() {
  expect((await getManual(otherId))?.status).toBe('ready');
  const store = await getVectorStore();
  const counts = await store.count({ manualIds: [otherId] });
  expect(counts.pages).toBe(10);
  expect(counts.chunks).toBeGreaterThan(10);
  expect(await sqliteRows(otherId)).toEqual({ pages: 10, chunks: counts.chunks });
  expect(await storedChunkIds(otherId)).toEqual(otherChunkIds);
  // Still found by a search: the rating plate exists only as OCR text of page 5.
  const hits = await store.bm25Search('T6.3A fuse rating plate', { limit: 5, filter: { manualIds: [otherId] } });
  expect(hits[0]?.page).toBe(5);
  expect(fs.readdirSync(path.join(manualDir(otherId), 'pages'))).toHaveLength(10);
}

/** Uploading the same file again re-queues the failed manual; with the fault gone it ends ready. */
async function expectRetrySucceeds(manualId: string, bytes: Uint8Array) {
  const again = await acceptUpload(bytesOf(bytes), 'retry.pdf', 'owner-a');
  expect(again).toMatchObject({ duplicate: false, manual: { id: manualId, status: 'queued', error: null, errorCode: null } });
  expect((await ingestManual(manualId))?.status).toBe('ready');
  expect(await getManual(manualId)).toMatchObject({ searchablePages: 10, figureLabels: 'done' });
  const counts = await (await getVectorStore()).count({ manualIds: [manualId] });
  expect(counts.pages).toBe(10);
  expect(await sqliteRows(manualId)).toEqual({ pages: 10, chunks: counts.chunks });
  expect((await (await getVectorStore()).bm25Search(QUERY, { limit: 5, filter: { manualIds: [manualId] } })).length).toBeGreaterThan(0);
}

/** The real store, except that `method` throws `error` (after noting what the store held then). */
function storeFailingAt(real: VectorStore, method: 'upsertChunks' | 'upsertPages', error: Error) {
  const seen: { heldWhenFailed?: { chunks: number; pages: number } } = {};
  const store = new Proxy(real, {
    get(target, prop) {
      if (prop === method) {
        return async (records: Array<{ manualId: string }>) => {
          seen.heldWhenFailed = await target.count({ manualIds: [records[0].manualId] });
          throw error;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, seen };
}

describe('a fault in the middle of an ingest rolls the manual back', () => {
  it('the figure-label pass fails after every text page was searchable: the text pass is rolled back too', async () => {
    const bytes = variant(6);
    const id = await upload(bytes, 'figure-pass-fault.pdf');
    // An OCR engine that fails every figure, noting how far the manual was searchable then.
    const searchableWhenFailed: number[] = [];
    const failing: OcrEngine = {
      id: 'failing-figures',
      engine: 'tesseract',
      languages: ['eng'],
      concurrency: 1,
      async recognize() {
        searchableWhenFailed.push((await getManual(id))!.searchablePages);
        throw new Error('figure engine crashed');
      },
      async terminate() {},
    };
    const summary = await ingestManual(id, { ocr: failing });
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'ingest_failed' });
    expect(summary!.error).toMatch(/^Processing failed while recognising text \(OCR\): figure engine crashed/);
    // The figure pass ran after the text of all 10 pages was searchable.
    expect(searchableWhenFailed[0]).toBe(10);
    expect(summary!.timings.first_searchable).toBeGreaterThan(0);
    await expectRolledBack(id);
    await expectOtherIntact();
    await expectRetrySucceeds(id, bytes);
  }, 120_000);

  it('the vector store fails writing pages after the chunks were written', async () => {
    const bytes = variant(1);
    const id = await upload(bytes, 'vector-store-fault.pdf');
    const { store, seen } = storeFailingAt(await getVectorStore(), 'upsertPages', new Error('LanceDB write failed: No space left on device (os error 28)'));

    const summary = await ingestManual(id, { store });
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'ingest_failed', chunks: 0 });
    expect(summary!.error).toBe(
      'Processing failed while indexing: LanceDB write failed: No space left on device (os error 28). Upload the file again to retry.',
    );
    // The chunks were in the store when the page write failed: the rollback had something to undo.
    expect(seen.heldWhenFailed?.chunks).toBeGreaterThan(10);
    expect(await getManual(id)).toMatchObject({ status: 'failed', error: summary!.error, errorCode: 'ingest_failed', progressTotal: 0 });

    await expectRolledBack(id);
    await expectOtherIntact();
    await expectRetrySucceeds(id, bytes);
    await expectOtherIntact();
  }, 120_000);

  it('SQLite refuses the chunk rows (a real trigger raising an I/O error) after the vectors were written', async () => {
    const bytes = variant(2);
    const id = await upload(bytes, 'sqlite-fault.pdf');
    const db = await getDb();
    // Only the complete rows of the last stage hold OCR chunks (the rating plate's figure labels);
    // the text pass's rows went in before, so its writes are rolled back too.
    await db.run(
      sql.raw(
        `CREATE TRIGGER fail_chunks BEFORE INSERT ON chunks WHEN NEW.manual_id = '${id}' AND NEW.ocr = 1 BEGIN SELECT RAISE(ABORT, 'injected disk I/O error'); END`,
      ),
    );
    try {
      const summary = await ingestManual(id);
      expect(summary).toMatchObject({ status: 'failed', errorCode: 'ingest_failed' });
      // The cause, not the driver's dump of the SQL statement and its parameters (the whole manual's text).
      expect(summary!.error).toBe('Processing failed while indexing: injected disk I/O error. Upload the file again to retry.');
      expect(await getManual(id)).toMatchObject({ status: 'failed', error: summary!.error });
      // The vectors were written before SQLite: they were removed too.
      await expectRolledBack(id);
      await expectOtherIntact();
    } finally {
      await db.run(sql.raw('DROP TRIGGER IF EXISTS fail_chunks'));
    }
    await expectRetrySucceeds(id, bytes);
    await expectOtherIntact();
  }, 120_000);

  it('the embedding server fails every batch: failed with its reason, the rendered pages removed', async () => {
    const server = await startFaultServer((req) => embeddingsReply(req, () => [1, 0, 0, 0]));
    try {
      const embedder = await OpenAICompatibleEmbedder.create({
        baseURL: `${server.url}/v1`,
        model: 'fake-embedder',
        timeoutMs: 1000,
        initialBackoffMs: 10,
        maxBackoffMs: 20,
      });
      server.respond(() => openaiErrorReply(503, 'model is loading'));
      const bytes = variant(3);
      const id = await upload(bytes, 'embedding-fault.pdf');

      const summary = await ingestManual(id, { embedder });
      expect(summary).toMatchObject({ status: 'failed', errorCode: 'ingest_failed' });
      expect(summary!.error).toMatch(
        /^Processing failed while embedding: embedding server 127\.0\.0\.1:\d+ \(fake-embedder\) failed: model is loading \(gave up after 3 attempts\)\. Upload the file again to retry\.$/,
      );
      // Rendering ran before embedding; its page images went with the rollback.
      expect(summary!.timings.rendering).toBeGreaterThanOrEqual(0);
      await expectRolledBack(id);
      await expectOtherIntact();
      await expectRetrySucceeds(id, bytes);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('the vector store cannot be opened at all: failed at once with the reason instead of a stuck job', async () => {
    const bytes = variant(5);
    const id = await upload(bytes, 'store-unreachable.pdf');
    // A real Weaviate client pointed at a port where nothing listens.
    process.env.VECTOR_DB = 'weaviate';
    process.env.WEAVIATE_URL = 'http://127.0.0.1:9';
    let summary;
    try {
      summary = await ingestManual(id);
    } finally {
      delete process.env.VECTOR_DB;
      delete process.env.WEAVIATE_URL;
    }
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'ingest_failed' });
    expect(summary!.error).toMatch(
      /^Processing failed while opening the vector store: Cannot connect to Weaviate at 127\.0\.0\.1:9 .*Upload the file again to retry\.$/,
    );
    expect((await getManual(id))?.status).toBe('failed');
    await expectRolledBack(id);
    await expectRetrySucceeds(id, bytes);
    await expectOtherIntact();
  }, 120_000);

  it('the vector store is down for the cleanup too: the rows and page images still go, and the retry starts clean', async () => {
    const bytes = variant(4);
    const id = await upload(bytes, 'store-down.pdf');
    const real = await getVectorStore();
    const down = new Error('vector store unreachable');
    // Chunks are written, then every later call fails, the rollback's delete included.
    let broken = false;
    const store = new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (broken) throw down;
          const result = await value.apply(target, args);
          if (prop === 'upsertChunks') broken = true;
          return result;
        };
      },
    });

    const summary = await ingestManual(id, { store });
    expect(summary).toMatchObject({ status: 'failed', error: 'Processing failed while indexing: vector store unreachable. Upload the file again to retry.' });
    expect(await sqliteRows(id)).toEqual({ pages: 0, chunks: 0 });
    expect(fs.readdirSync(manualDir(id))).toEqual(['source.pdf']);
    // The orphaned vectors are unreachable from chat (only ready manuals are searched) and the
    // retry's indexing stage clears them before writing.
    expect((await real.count({ manualIds: [id] })).chunks).toBeGreaterThan(0);
    await expectRetrySucceeds(id, bytes);
    await expectOtherIntact();
  }, 120_000);
});
