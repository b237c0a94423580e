import type { ProviderDescriptor } from '../descriptor';
import { HashedNgramEmbedder } from './hashed-ngrams';

/** Hashed character n-gram vectors: no model, no server, nothing to download. */
export const offlineProvider: ProviderDescriptor = {
  name: 'offline',
  env: {},
  roles: {
    embeddings: {
      batchSize: 256,
      tokenVectors: true,
      resolve: () => ({ mode: 'offline', model: 'hashed-char-ngrams', detail: 'offline hashed character n-gram vectors' }),
      create: async () => new HashedNgramEmbedder(),
    },
  },
};
