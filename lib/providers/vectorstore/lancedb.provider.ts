import path from 'node:path';
import type { ProviderDescriptor } from '../descriptor';

/** LanceDB on disk under DATA_DIR: the default, embedded vector store. */
export const lancedbProvider: ProviderDescriptor = {
  name: 'lancedb',
  env: {},
  roles: {
    vectorDb: {
      fallback: true,
      resolve: () => ({ mode: 'offline', detail: 'LanceDB on disk (DATA_DIR/lancedb)' }),
      // Imported when chosen: a Weaviate deployment never loads LanceDB's native module.
      create: async (_config, { dataDir }) => (await import('./lancedb')).openLanceStore(path.join(dataDir, 'lancedb')),
    },
  },
};
