import path from 'node:path';
import { optionalString } from '../config';
import type { ProviderDescriptor } from './descriptor';
import { loadTransformersReranker } from './reranker/transformers';
import { HashedNgramEmbedder } from './embeddings/hashed-ngrams';
import { loadTransformersEmbedder } from './embeddings/transformers';
import { envInt, errorMessage } from './embeddings/util';

const DEFAULT_EMBEDDING_MODEL = 'Xenova/bge-small-en-v1.5';
const DEFAULT_RERANKER_MODEL = 'Xenova/ms-marco-MiniLM-L-6-v2';
const RERANKER_VARIABLES = ['RERANKER_MODEL', 'RERANKER_MODEL_DIR'] as const;

const modelsDir = (dataDir: string) => path.join(dataDir, 'models');
const probeTimeoutMs = () => envInt('EMBEDDING_PROBE_TIMEOUT_MS', 3000);

/**
 * transformers.js models on this machine: the default embedder and the cross-encoder reranker.
 * Whether a model can be loaded is known only at run time, so the embedder falls back to the
 * offline one (saying why) and the reranker is skipped.
 */
export const transformersProvider: ProviderDescriptor = {
  name: 'transformers',
  env: { EMBEDDING_MODEL: optionalString, EMBEDDING_MODEL_DIR: optionalString, RERANKER_MODEL: optionalString, RERANKER_MODEL_DIR: optionalString },
  check(env, chosen, problems) {
    if (chosen.reranker === 'transformers') return;
    for (const name of RERANKER_VARIABLES) {
      if (env[name]) problems.push(`${name} is set but RERANKER=${chosen.reranker}: remove one of them`);
    }
  },
  roles: {
    embeddings: {
      fallback: true,
      batchSize: 16,
      tokenVectors: true,
      resolve(env) {
        const model = env.EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL;
        return {
          mode: 'offline',
          model,
          modelDir: env.EMBEDDING_MODEL_DIR,
          detail: `transformers.js ${model} (offline fallback when the model cannot be loaded)`,
        };
      },
      async create({ model, modelDir }, { dataDir }) {
        try {
          return await loadTransformersEmbedder({ model: model!, modelDir, cacheDir: modelsDir(dataDir), probeTimeoutMs: probeTimeoutMs() });
        } catch (err) {
          const reason = errorMessage(err);
          console.warn(`[embeddings] using the offline embedder: ${reason}`);
          return new HashedNgramEmbedder({}, reason);
        }
      },
    },
    reranker: {
      fallback: true,
      resolve(env) {
        const model = env.RERANKER_MODEL ?? DEFAULT_RERANKER_MODEL;
        return {
          mode: 'offline',
          model,
          modelDir: env.RERANKER_MODEL_DIR,
          detail: `cross-encoder ${model} via transformers.js (skipped when the model cannot be loaded)`,
        };
      },
      create: ({ model, modelDir }, { dataDir }) =>
        loadTransformersReranker({ model: model!, modelDir, cacheDir: modelsDir(dataDir), probeTimeoutMs: probeTimeoutMs() }),
    },
  },
};
