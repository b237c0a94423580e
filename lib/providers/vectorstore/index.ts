/**
 * Vector stores: the process-wide instance of the configured backend (LanceDB on disk by default,
 * Weaviate when WEAVIATE_URL is set), which its provider descriptor creates. getVectorStore()
 * opens it once per configuration and keeps it on globalThis, so Next's dev reloads and every
 * route in the process share one connection and one write queue.
 */
import path from 'node:path';
import { getProviderConfig, roleSpec } from '../roles';
import type { ProviderConfig } from '../descriptor';
import type { VectorStore } from '../types';
import type { LanceStore, LanceStoreOptions } from './lancedb';

export type { LanceStore, LanceStoreOptions } from './lancedb';

/** A LanceDB store in `dir` (tests, eval harness, bench). Tables are created on first upsert. */
export async function openLanceStore(dir: string, opts?: LanceStoreOptions): Promise<LanceStore> {
  return (await import('./lancedb')).openLanceStore(dir, opts);
}

/**
 * One store per backend and identity: a server's URL and API key (a rotated key means a new
 * client; kept as a hash, not in clear), or for an embedded store its folder, DATA_DIR/<provider>.
 */
function storeKey(config: ProviderConfig): string {
  const v = config.vectorDb;
  if (!v.url) return `${v.provider}:${path.join(config.dataDir, v.provider)}`;
  return `${v.provider}:${v.url}:${v.apiKey ? `key#${simpleHash(v.apiKey)}` : 'nokey'}`;
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
  const config = getProviderConfig();
  const key = storeKey(config);
  const stores = registry();
  const existing = stores.get(key);
  if (existing) {
    const store = await existing.catch(() => null);
    if (store && !store.closed) return store;
    if (stores.get(key) === existing) stores.delete(key);
    return getVectorStore();
  }
  const opening = roleSpec('vectorDb', config.vectorDb.provider).create(config.vectorDb, { dataDir: config.dataDir });
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
