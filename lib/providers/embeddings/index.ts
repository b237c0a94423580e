/**
 * The dense-embeddings role: one factory table, keyed by config.embeddings.provider. A new
 * backend is its file, a row here, and its variables in lib/config (README "Adding a provider"). Every embedder except the offline one (cheaper to
 * compute than to look up) is wrapped with batching and the persistent cache.
 *
 * transformers.js falls back to the offline embedder, with `fallbackReason`, when no model can
 * be had (not on disk, hub disabled or unreachable); API embedders that were configured
 * explicitly fail loudly instead, since silently switching vector spaces would corrupt the index.
 */
import path from 'node:path';
import type { AppConfig, EmbeddingsProvider } from '../../config';
import { getConfig, runtimeEnv } from '../../config';
import type { Embedder } from '../types';
import { CachingEmbedder, VectorCache } from './cache';
import { GeminiEmbedder } from './gemini';
import { HashedNgramEmbedder } from './hashed-ngrams';
import { OpenAICompatibleEmbedder } from './openai-compatible';
import { loadTransformersEmbedder } from './transformers';
import { envInt, errorMessage, sha256Hex } from './util';

type Factory = (config: AppConfig) => Promise<Embedder>;

const FACTORIES: Record<EmbeddingsProvider, Factory> = {
  transformers: (config) =>
    loadTransformersEmbedder({
      model: config.embeddings.model,
      modelDir: config.embeddings.modelDir,
      cacheDir: path.join(config.dataDir, 'models'),
      probeTimeoutMs: envInt('EMBEDDING_PROBE_TIMEOUT_MS', 3000),
    }),
  offline: async () => new HashedNgramEmbedder(),
  'openai-compatible': async (config) => {
    if (!config.openaiCompatible) throw new Error('EMBEDDINGS=openai-compatible needs OPENAI_COMPATIBLE_BASE_URL');
    return OpenAICompatibleEmbedder.create({
      baseURL: config.openaiCompatible.baseURL,
      apiKey: config.openaiCompatible.apiKey,
      model: config.embeddings.model,
      timeoutMs: envInt('EMBEDDING_TIMEOUT_MS', 60_000),
    });
  },
  gemini: async (config) => {
    if (!config.gemini) throw new Error('EMBEDDINGS=gemini needs GOOGLE_GENERATIVE_AI_API_KEY');
    return new GeminiEmbedder({ apiKey: config.gemini.apiKey, model: config.embeddings.model, timeoutMs: envInt('EMBEDDING_TIMEOUT_MS', 60_000) });
  },
};

/** Texts per inner call; EMBEDDING_BATCH_SIZE overrides. Gemini's batch endpoint takes up to 100. */
const DEFAULT_BATCH_SIZE: Record<EmbeddingsProvider, number> = {
  transformers: 16,
  offline: 256,
  'openai-compatible': 64,
  gemini: 100,
};

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
async function createEmbedder(config: AppConfig = getConfig()): Promise<Embedder> {
  const provider = config.embeddings.provider;
  let inner: Embedder;
  try {
    inner = await FACTORIES[provider](config);
  } catch (err) {
    if (provider !== 'transformers') throw err;
    const reason = errorMessage(err);
    console.warn(`[embeddings] using the offline embedder: ${reason}`);
    inner = new HashedNgramEmbedder({}, reason);
  }
  if ((inner as { cacheable?: boolean }).cacheable === false) return inner;

  let cache: VectorCache | null = null;
  try {
    cache = await openEmbeddingCache(config.dataDir);
  } catch (err) {
    console.warn(`[embeddings] cache disabled: ${errorMessage(err)}`);
  }
  return new CachingEmbedder(inner, { cache, batchSize: envInt('EMBEDDING_BATCH_SIZE', DEFAULT_BATCH_SIZE[inner.provider]) });
}

let memo: { key: string; promise: Promise<Embedder> } | undefined;

function memoKey(config: AppConfig): string {
  return JSON.stringify({
    embeddings: config.embeddings,
    dataDir: config.dataDir,
    openai: config.openaiCompatible && { url: config.openaiCompatible.baseURL, key: sha256Hex(config.openaiCompatible.apiKey ?? '') },
    gemini: config.gemini && sha256Hex(config.gemini.apiKey),
    batch: runtimeEnv('EMBEDDING_BATCH_SIZE'),
  });
}

/** The process-wide embedder for the current configuration (rebuilt when the configuration changes). */
export function getEmbedder(): Promise<Embedder> {
  const config = getConfig();
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
