/**
 * The multi-vector (late interaction) role: the configured provider's descriptor creates the
 * embedder (`local`: token vectors of the active dense embedder pooled per page; `colqwen`: the
 * HTTP worker, COLQWEN_WORKER.md). This factory hands it the dense embedder and the shared cache.
 */
import { runtimeEnv } from '../../config';
import { getProviderConfig, roleSpec } from '../roles';
import type { CreateContext, ProviderConfig } from '../descriptor';
import { embeddingsGeneration, getEmbedder, openEmbeddingCache } from '../embeddings';
import { errorMessage } from '../embeddings/util';
import type { MultiVectorEmbedder } from '../types';

function context(config: ProviderConfig): CreateContext['multiVector'] {
  return {
    dataDir: config.dataDir,
    // Decided from the config, not the embedder: an API embedder has no token outputs, and
    // page search stays up while its server is down.
    tokenEmbedder: async () => (roleSpec('embeddings', config.embeddings.provider).tokenVectors ? getEmbedder() : undefined),
    async cache() {
      try {
        return await openEmbeddingCache(config.dataDir);
      } catch (err) {
        console.warn(`[multivector] cache disabled: ${errorMessage(err)}`);
        return null;
      }
    },
  };
}

let memo: { key: string; promise: Promise<MultiVectorEmbedder> } | undefined;

/** The process-wide multi-vector embedder for the current configuration. */
export function getMultiVectorEmbedder(): Promise<MultiVectorEmbedder> {
  const config = getProviderConfig();
  const key = JSON.stringify({
    multiVector: config.multiVector,
    embeddings: config.embeddings,
    dataDir: config.dataDir,
    max: runtimeEnv('MULTIVECTOR_MAX_VECTORS_PER_PAGE'),
    generation: embeddingsGeneration(),
  });
  if (!memo || memo.key !== key) {
    const promise = roleSpec('multiVector', config.multiVector.provider).create(config.multiVector, context(config));
    memo = { key, promise };
    promise.catch(() => {
      if (memo?.promise === promise) memo = undefined;
    });
  }
  return memo.promise;
}
