/**
 * The multi-vector (late interaction) role: one factory table keyed by config.multiVector.provider.
 *
 * local: token vectors of the active dense embedder (transformers.js token outputs, or the
 * offline hashed n-gram token vectors), pooled per page. When the dense embedder is an API that
 * returns one vector per text (Gemini, OpenAI-compatible), the token vectors come from the
 * offline embedder, which needs nothing.
 * colqwen: the HTTP worker (COLQWEN_WORKER.md).
 */
import type { AppConfig, MultiVectorProvider } from '../../config';
import { getConfig, runtimeEnv } from '../../config';
import { embeddingsGeneration, getEmbedder, openEmbeddingCache } from '../embeddings';
import type { VectorCache } from '../embeddings/cache';
import { HashedNgramEmbedder } from '../embeddings/hashed-ngrams';
import { hasTokenVectors } from '../embeddings/token-vectors';
import { envInt, errorMessage } from '../embeddings/util';
import type { MultiVectorEmbedder } from '../types';
import { ColQwenMultiVectorEmbedder } from './colqwen';
import { DEFAULT_MAX_VECTORS_PER_PAGE, LocalMultiVectorEmbedder, OFFLINE_MAX_VECTORS_PER_PAGE } from './local';

type Factory = (config: AppConfig) => Promise<MultiVectorEmbedder>;

async function sharedCache(config: AppConfig): Promise<VectorCache | null> {
  try {
    return await openEmbeddingCache(config.dataDir);
  } catch (err) {
    console.warn(`[multivector] cache disabled: ${errorMessage(err)}`);
    return null;
  }
}

const FACTORIES: Record<MultiVectorProvider, Factory> = {
  local: async (config) => {
    const max = (fallback: number) => envInt('MULTIVECTOR_MAX_VECTORS_PER_PAGE', fallback);
    // API embedders have no token outputs, so their pages always use the offline token vectors;
    // deciding from the config keeps page search up while the API server is down.
    const dense = config.embeddings.provider === 'transformers' || config.embeddings.provider === 'offline' ? await getEmbedder() : undefined;
    if (dense && hasTokenVectors(dense) && dense.provider !== 'offline') {
      // Model token outputs cost a forward pass per page: cache the pooled bags.
      return new LocalMultiVectorEmbedder(dense, { maxVectorsPerPage: max(DEFAULT_MAX_VECTORS_PER_PAGE), cache: await sharedCache(config) });
    }
    const source = dense && hasTokenVectors(dense) ? dense : new HashedNgramEmbedder();
    return new LocalMultiVectorEmbedder(source, { maxVectorsPerPage: max(OFFLINE_MAX_VECTORS_PER_PAGE) });
  },
  colqwen: async (config) => {
    if (!config.multiVector.url) throw new Error('MULTIVECTOR=colqwen needs COLQWEN_URL');
    return ColQwenMultiVectorEmbedder.create({
      url: config.multiVector.url,
      cache: await sharedCache(config),
      maxVectorsPerPage: envInt('MULTIVECTOR_MAX_VECTORS_PER_PAGE', 256),
      timeoutMs: envInt('COLQWEN_TIMEOUT_MS', 120_000),
    });
  },
};

let memo: { key: string; promise: Promise<MultiVectorEmbedder> } | undefined;

/** The process-wide multi-vector embedder for the current configuration. */
export function getMultiVectorEmbedder(): Promise<MultiVectorEmbedder> {
  const config = getConfig();
  const key = JSON.stringify({
    multiVector: config.multiVector,
    embeddings: config.embeddings,
    dataDir: config.dataDir,
    max: runtimeEnv('MULTIVECTOR_MAX_VECTORS_PER_PAGE'),
    generation: embeddingsGeneration(),
  });
  if (!memo || memo.key !== key) {
    const promise = FACTORIES[config.multiVector.provider](config);
    memo = { key, promise };
    promise.catch(() => {
      if (memo?.promise === promise) memo = undefined;
    });
  }
  return memo.promise;
}
