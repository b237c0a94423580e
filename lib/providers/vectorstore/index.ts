/**
 * Vector stores: the factory table (one row per backend) and the process-wide instance.
 *
 * getVectorStore() resolves the configured backend (LanceDB on disk by default,
 * Weaviate when WEAVIATE_URL is set) once per configuration and keeps it on globalThis, so Next's
 * dev reloads and every route in the process share one connection and one write queue.
 * Backends are imported lazily: a LanceDB deployment never loads the gRPC stack and vice versa.
 */
import path from 'node:path';
import { getConfig, type AppConfig, type VectorDbProvider } from '../../config';
import type { VectorStore } from '../types';
import type { LanceStore, LanceStoreOptions } from './lancedb';
import type { WeaviateStore, WeaviateStoreOptions } from './weaviate';

export type { LanceStore, LanceStoreOptions } from './lancedb';

/** A LanceDB store in `dir` (tests, eval harness, bench). Tables are created on first upsert. */
export async function openLanceStore(dir: string, opts?: LanceStoreOptions): Promise<LanceStore> {
  return (await import('./lancedb')).openLanceStore(dir, opts);
}

/** A Weaviate store for a URL (+ API key) or an existing client. Collections are created on first upsert. */
async function openWeaviateStore(opts: WeaviateStoreOptions): Promise<WeaviateStore> {
  return (await import('./weaviate')).openWeaviateStore(opts);
}

type Factory = (config: AppConfig) => Promise<VectorStore & { readonly closed: boolean }>;

/** The factory table: a new backend is its file, a row here, and its variables in lib/config. */
const FACTORIES: Record<VectorDbProvider, Factory> = {
  lancedb: (config) => openLanceStore(path.join(config.dataDir, 'lancedb')),
  weaviate: (config) => {
    if (!config.vectorDb.url) throw new Error('VECTOR_DB=weaviate needs WEAVIATE_URL');
    return openWeaviateStore({ url: config.vectorDb.url, apiKey: config.vectorDb.apiKey });
  },
};

function storeKey(config: AppConfig): string {
  const v = config.vectorDb;
  // The API key is part of the identity (a rotated key means a new client) but not stored in clear.
  const keyTag = v.apiKey ? `key#${simpleHash(v.apiKey)}` : 'nokey';
  return v.provider === 'lancedb' ? `lancedb:${path.join(config.dataDir, 'lancedb')}` : `weaviate:${v.url}:${keyTag}`;
}

function simpleHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

type Registry = Map<string, Promise<VectorStore & { readonly closed: boolean }>>;
const REGISTRY_KEY = Symbol.for('manual-copilot.vectorstores');

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Registry };
  return (g[REGISTRY_KEY] ??= new Map());
}

/** The configured store, one per process and configuration (per DATA_DIR for LanceDB). */
export async function getVectorStore(): Promise<VectorStore> {
  const config = getConfig();
  const key = storeKey(config);
  const stores = registry();
  const existing = stores.get(key);
  if (existing) {
    const store = await existing.catch(() => null);
    if (store && !store.closed) return store;
    if (stores.get(key) === existing) stores.delete(key);
    return getVectorStore();
  }
  const opening = FACTORIES[config.vectorDb.provider](config);
  stores.set(key, opening);
  // A failed open (server down, bad dimensions) is not cached: the next call tries again.
  opening.catch(() => {
    if (stores.get(key) === opening) stores.delete(key);
  });
  return opening;
}

/** Closes every store this process opened (tests, graceful shutdown). */
export async function closeVectorStores(): Promise<void> {
  const stores = registry();
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
}
