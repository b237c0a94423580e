/**
 * The shared VectorStore suite against a real Weaviate (≥ 1.29 for multi-vectors). Skipped
 * unless WEAVIATE_URL is set, e.g. after `docker compose up -d weaviate`:
 *   WEAVIATE_URL=http://localhost:8080 npx vitest run lib/providers/vectorstore
 * Every store gets its own collection prefix and drops its collections afterwards.
 */
import type { VectorStore } from '../types';
import { runVectorStoreSuite } from './testing/vector-store-suite';
import { openWeaviateStore, type WeaviateStore } from './weaviate';

const WEAVIATE_URL = process.env.WEAVIATE_URL;
let prefixCounter = 0;
const runTag = Math.random().toString(36).slice(2, 8);
runVectorStoreSuite(
  'Weaviate',
  () =>
    openWeaviateStore({
      url: WEAVIATE_URL,
      apiKey: process.env.WEAVIATE_API_KEY,
      collectionPrefix: `Mctest${runTag}x${++prefixCounter}`,
    }),
  {
    skip: WEAVIATE_URL ? undefined : 'WEAVIATE_URL is not set (run `docker compose up -d weaviate` and set WEAVIATE_URL=http://localhost:8080)',
    destroy: async (store: VectorStore) => {
      await (store as WeaviateStore).drop();
      await store.close();
    },
    timeoutMs: 60_000,
  },
);
