import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreEnv } from '@/test/env';
import { axis, suiteChunks } from './testing/vector-store-suite';
import { closeVectorStores, getVectorStore, openLanceStore } from './index';

describe('getVectorStore', () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, VECTOR_DB: process.env.VECTOR_DB, WEAVIATE_URL: process.env.WEAVIATE_URL };
  const dirs: string[] = [];
  const freshDataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-vs-index-'));
    dirs.push(d);
    return d;
  };
  beforeAll(() => {
    process.env.VECTOR_DB = 'lancedb';
    delete process.env.WEAVIATE_URL;
  });
  afterAll(async () => {
    await closeVectorStores();
    restoreEnv(saved);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('returns one LanceDB store per DATA_DIR, kept on globalThis, stored under DATA_DIR/lancedb', async () => {
    const dataDir = freshDataDir();
    process.env.DATA_DIR = dataDir;
    const [a, b] = await Promise.all([getVectorStore(), getVectorStore()]);
    expect(a).toBe(b);
    expect(a.provider).toBe('lancedb');
    const registry = (globalThis as Record<symbol, unknown>)[Symbol.for('manual-copilot.vectorstores')] as Map<string, unknown>;
    expect([...registry.keys()]).toContain(`lancedb:${path.join(dataDir, 'lancedb')}`);
    await a.upsertChunks(suiteChunks());
    expect(fs.existsSync(path.join(dataDir, 'lancedb', 'chunks.lance'))).toBe(true);

    process.env.DATA_DIR = freshDataDir();
    const other = await getVectorStore();
    expect(other).not.toBe(a);
    expect(await other.count()).toEqual({ chunks: 0, pages: 0 });

    process.env.DATA_DIR = dataDir;
    expect(await getVectorStore()).toBe(a);
    expect((await a.denseSearch(axis(0), { limit: 1 }))[0].id).toBe('a1');
  });

  it('replaces a store that was closed', async () => {
    process.env.DATA_DIR = freshDataDir();
    const a = await getVectorStore();
    await a.close();
    const b = await getVectorStore();
    expect(b).not.toBe(a);
    expect(await b.count()).toEqual({ chunks: 0, pages: 0 });
  });

  it('exposes a factory for a given directory', async () => {
    const store = await openLanceStore(path.join(freshDataDir(), 'x'));
    expect(store.provider).toBe('lancedb');
    await store.close();
  });
});
