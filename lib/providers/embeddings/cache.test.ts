import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions, Embedder } from '../types';
import { CachingEmbedder, VectorCache } from './cache';
import { HashedNgramEmbedder } from './hashed-ngrams';
import { hasTokenVectors } from './token-vectors';

/** A deterministic API-like embedder that counts what reaches it. */
class CountingEmbedder implements Embedder {
  readonly id = 'test:counting:4';
  readonly fingerprint = 'test:counting:4';
  readonly dimensions = 4;
  readonly provider = 'openai-compatible' as const;
  documentCalls: string[][] = [];
  queryCalls: string[] = [];

  private vec(text: string, salt: number): Float32Array {
    const v = new Float32Array(4);
    for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) + salt) % 4] += 1;
    return v;
  }

  async embedDocuments(texts: string[], _opts?: CallOptions): Promise<Float32Array[]> {
    this.documentCalls.push(texts);
    return texts.map((t) => this.vec(t, 0));
  }

  async embedQuery(text: string, _opts?: CallOptions): Promise<Float32Array> {
    this.queryCalls.push(text);
    return this.vec(text, 1);
  }
}

const dirs: string[] = [];
const caches: VectorCache[] = [];
async function openTemp(dir?: string): Promise<VectorCache> {
  const d = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mc-vcache-'));
  dirs.push(d);
  const c = await VectorCache.open(path.join(d, 'cache', 'embeddings.db'));
  caches.push(c);
  return c;
}

afterEach(() => {
  for (const c of caches.splice(0)) c.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('VectorCache', () => {
  it('round-trips Float32 bags exactly, keyed by model, kind and text', async () => {
    const cache = await openTemp();
    const bag = [Float32Array.from([0.1, -2.5, 3e-8]), Float32Array.from([1, 2, 3])];
    await cache.putMany([
      { key: { model: 'm1', kind: 'page', text: 'hello' }, vectors: bag },
      { key: { model: 'm1', kind: 'document', text: 'hello' }, vectors: [Float32Array.from([9, 9, 9])] },
    ]);
    const hits = await cache.getMany([
      { model: 'm1', kind: 'page', text: 'hello' },
      { model: 'm2', kind: 'page', text: 'hello' },
      { model: 'm1', kind: 'query', text: 'hello' },
      { model: 'm1', kind: 'document', text: 'hello' },
    ]);
    expect([...hits.keys()].sort()).toEqual([0, 3]);
    expect(hits.get(0)!.map((v) => Array.from(v))).toEqual(bag.map((v) => Array.from(v)));
    expect(Array.from(hits.get(3)![0])).toEqual([9, 9, 9]);
    expect(await cache.count('m1')).toBe(2);
  });

  it('looks up more keys than one SQL statement can bind', async () => {
    const cache = await openTemp();
    const texts = Array.from({ length: 700 }, (_, i) => `text ${i}`);
    await cache.putMany(texts.map((text, i) => ({ key: { model: 'm', kind: 'document', text }, vectors: [Float32Array.of(i)] })));
    const hits = await cache.getMany(texts.map((text) => ({ model: 'm', kind: 'document' as const, text })));
    expect(hits.size).toBe(700);
    expect(hits.get(699)![0][0]).toBe(699);
  });
});

describe('CachingEmbedder', () => {
  it('serves a second call from the cache without calling the inner embedder', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachingEmbedder(inner, { cache: await openTemp(), batchSize: 10 });
    const texts = ['pump', 'motor', 'fuse'];
    const first = await cached.embedDocuments(texts);
    expect(inner.documentCalls).toEqual([texts]);

    const second = await cached.embedDocuments(texts);
    expect(inner.documentCalls).toHaveLength(1);
    expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    expect(cached.stats).toMatchObject({ innerCalls: 1, cacheHits: 3, cacheMisses: 3 });
  });

  it('persists across processes (a new wrapper on the same file)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-vcache-'));
    const a = new CountingEmbedder();
    await new CachingEmbedder(a, { cache: await openTemp(dir), batchSize: 10 }).embedDocuments(['re-ingest me']);
    const b = new CountingEmbedder();
    await new CachingEmbedder(b, { cache: await openTemp(dir), batchSize: 10 }).embedDocuments(['re-ingest me']);
    expect(a.documentCalls).toHaveLength(1);
    expect(b.documentCalls).toHaveLength(0);
  });

  it('embeds only the misses, in batches, once per distinct text, preserving order', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachingEmbedder(inner, { cache: await openTemp(), batchSize: 2 });
    await cached.embedDocuments(['b']);
    const out = await cached.embedDocuments(['a', 'b', 'c', 'a', 'd', 'e']);
    expect(inner.documentCalls).toEqual([['b'], ['a', 'c'], ['d', 'e']]);
    const direct = await inner.embedDocuments(['a', 'b', 'c', 'a', 'd', 'e']);
    expect(out.map((v) => Array.from(v))).toEqual(direct.map((v) => Array.from(v)));
  });

  it('keeps query and document vectors apart (models embed them differently)', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachingEmbedder(inner, { cache: await openTemp(), batchSize: 8 });
    const doc = (await cached.embedDocuments(['voltage']))[0];
    const q1 = await cached.embedQuery('voltage');
    const q2 = await cached.embedQuery('voltage');
    expect(inner.queryCalls).toEqual(['voltage']);
    expect(Array.from(q1)).toEqual(Array.from(q2));
    expect(Array.from(q1)).not.toEqual(Array.from(doc));
  });

  it('still batches without a cache', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachingEmbedder(inner, { cache: null, batchSize: 2 });
    await cached.embedDocuments(['a', 'b', 'c']);
    await cached.embedDocuments(['a']);
    expect(inner.documentCalls).toEqual([['a', 'b'], ['c'], ['a']]);
  });

  it('keeps the inner identity and passes token vectors through', async () => {
    const offline = new HashedNgramEmbedder({}, 'no model');
    const cached = new CachingEmbedder(offline, { cache: null, batchSize: 4 });
    expect(cached).toMatchObject({ id: offline.id, provider: 'offline', dimensions: offline.dimensions, fallbackReason: 'no model' });
    expect(hasTokenVectors(cached)).toBe(true);
    expect(hasTokenVectors(new CachingEmbedder(new CountingEmbedder(), { cache: null, batchSize: 4 }))).toBe(false);
  });

  it('rejects an inner embedder that loses vectors', async () => {
    const inner = new CountingEmbedder();
    inner.embedDocuments = async () => [];
    const cached = new CachingEmbedder(inner, { cache: null, batchSize: 4 });
    await expect(cached.embedDocuments(['x'])).rejects.toThrow(/returned 0 vectors for 1 texts/);
  });

  it('aborts before calling the inner embedder', async () => {
    const inner = new CountingEmbedder();
    const cached = new CachingEmbedder(inner, { cache: null, batchSize: 4 });
    await expect(cached.embedDocuments(['x'], { signal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow('stop');
    expect(inner.documentCalls).toHaveLength(0);
  });
});
