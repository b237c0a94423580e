/**
 * The dense-embeddings role: the configured provider's descriptor creates the embedder (README
 * "Adding a provider"). Every embedder except the offline one (cheaper to compute than to look up)
 * is wrapped with batching and the persistent cache.
 *
 * transformers.js falls back to the offline embedder, with `fallbackReason`, when no model can
 * be had (not on disk, hub disabled or unreachable); API embedders that were configured
 * explicitly fail loudly instead, since silently switching vector spaces would corrupt the index.
 */
import path from 'node:path';
import { getConfig, runtimeEnv } from '../../config';
import { getProviderConfig, roleSpec } from '../roles';
import type { ProviderConfig } from '../descriptor';
import { PROVIDERS } from '../registry';
import type { Embedder } from '../types';
import { CachingEmbedder, VectorCache } from './cache';
import { envInt, errorMessage, sha256Hex } from './util';

/** Texts per inner call when a provider does not say (EMBEDDING_BATCH_SIZE overrides). */
const DEFAULT_BATCH_SIZE = 16;

/**
 * Dense weight (alpha) for VectorStore.hybridSearch with this embedder. The offline figure is
 * measured by the embedder measurement script (relative score fusion of page BM25 and dense at
 * 0.4 never fell below BM25 alone; the script was removed in 0c4f907, `git show
 * 0c4f907^:scripts/measure-embedders.ts`); the others are the usual default for a trained model.
 */
export function recommendedHybridAlpha(embedder: Pick<Embedder, 'provider'>): number {
  return embedder.provider === 'offline' ? 0.4 : 0.5;
}

const caches = new Map<string, Promise<VectorCache>>();

/** The shared persistent vector cache of a DATA_DIR (DATA_DIR/cache/embeddings.db). */
export function openEmbeddingCache(dataDir = getConfig().dataDir): Promise<VectorCache> {
  const file = path.join(dataDir, 'cache', 'embeddings.db');
  let c = caches.get(file);
  if (!c) {
    c = VectorCache.open(file);
    caches.set(file, c);
    c.catch(() => caches.delete(file));
  }
  return c;
}

/** Builds the configured embedder (no memoisation; getEmbedder memoises). */
async function createEmbedder(config: ProviderConfig): Promise<Embedder> {
  const inner = await roleSpec('embeddings', config.embeddings.provider).create(config.embeddings, { dataDir: config.dataDir });
  if ((inner as { cacheable?: boolean }).cacheable === false) return inner;

  let cache: VectorCache | null = null;
  try {
    cache = await openEmbeddingCache(config.dataDir);
  } catch (err) {
    console.warn(`[embeddings] cache disabled: ${errorMessage(err)}`);
  }
  // The batch size of the embedder made, which a fallback may have replaced.
  const batchSize = PROVIDERS.find((d) => d.name === inner.provider)?.roles.embeddings?.batchSize ?? DEFAULT_BATCH_SIZE;
  return new CachingEmbedder(inner, { cache, batchSize: envInt('EMBEDDING_BATCH_SIZE', batchSize) });
}

let memo: { key: string; promise: Promise<Embedder> } | undefined;

/** What identifies the configured embedder; its API key only as a hash. */
function memoKey(config: ProviderConfig): string {
  const { apiKey, ...embeddings } = config.embeddings;
  return JSON.stringify({ embeddings, key: apiKey && sha256Hex(apiKey), dataDir: config.dataDir, batch: runtimeEnv('EMBEDDING_BATCH_SIZE') });
}

/** The process-wide embedder for the current configuration (rebuilt when the configuration changes). */
export function getEmbedder(): Promise<Embedder> {
  const config = getProviderConfig();
  const key = memoKey(config);
  if (!memo || memo.key !== key) {
    const promise = createEmbedder(config);
    memo = { key, promise };
    // A failed build (server down, bad key) is retried on the next call instead of cached.
    promise.catch(() => {
      if (memo?.promise === promise) memo = undefined;
    });
  }
  return memo.promise;
}

let generation = 0;

/** Bumped by closeEmbeddings, so dependants (the multi-vector factory) rebuild too. */
export function embeddingsGeneration(): number {
  return generation;
}

/** Closes cache files and forgets the memoised embedder (tests, CLIs before exit). */
export async function closeEmbeddings(): Promise<void> {
  memo = undefined;
  generation++;
  const open = [...caches.values()];
  caches.clear();
  for (const c of open) (await c.catch(() => undefined))?.close();
}
