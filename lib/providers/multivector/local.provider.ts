import type { ProviderDescriptor } from '../descriptor';
import { HashedNgramEmbedder } from '../embeddings/hashed-ngrams';
import { hasTokenVectors } from '../embeddings/token-vectors';
import { envInt } from '../embeddings/util';
import { DEFAULT_MAX_VECTORS_PER_PAGE, LocalMultiVectorEmbedder, OFFLINE_MAX_VECTORS_PER_PAGE } from './local';

/**
 * Token vectors of the active dense embedder, pooled per page. An API embedder returns one vector
 * per text, so its pages use the offline embedder's token vectors, which need nothing.
 */
export const localMultiVectorProvider: ProviderDescriptor = {
  name: 'local',
  env: {},
  roles: {
    multiVector: {
      fallback: true,
      resolve: (_env, { resolved }) => ({
        mode: resolved.embeddings?.mode ?? 'offline',
        detail: 'token vectors of page text + OCR from the active embedder, pooled per page',
      }),
      async create(_config, ctx) {
        const max = (fallback: number) => envInt('MULTIVECTOR_MAX_VECTORS_PER_PAGE', fallback);
        const dense = await ctx.tokenEmbedder();
        if (dense && hasTokenVectors(dense) && dense.provider !== 'offline') {
          // Model token outputs cost a forward pass per page: cache the pooled bags.
          return new LocalMultiVectorEmbedder(dense, { maxVectorsPerPage: max(DEFAULT_MAX_VECTORS_PER_PAGE), cache: await ctx.cache() });
        }
        const source = dense && hasTokenVectors(dense) ? dense : new HashedNgramEmbedder();
        return new LocalMultiVectorEmbedder(source, { maxVectorsPerPage: max(OFFLINE_MAX_VECTORS_PER_PAGE) });
      },
    },
  },
};
