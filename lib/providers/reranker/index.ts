/**
 * The reranker role. Unlike the embedder there is no fallback model: with no cross-encoder to be
 * had (RERANKER=none, not on disk, hub disabled or unreachable) search simply skips the stage,
 * so the factory never throws — it returns null and says why, for /api/health and the trail.
 */
import path from 'node:path';
import type { AppConfig } from '../../config';
import { getConfig } from '../../config';
import { envInt, errorMessage } from '../embeddings/util';
import type { Reranker } from '../types';
import { loadTransformersReranker } from './transformers';

export type RerankerStatus = { reranker: Reranker; reason?: undefined } | { reranker: null; reason: string };

/** Builds the configured reranker (no memoisation; getReranker memoises). Never throws. */
export async function createReranker(config: AppConfig = getConfig()): Promise<RerankerStatus> {
  const rc = config.reranker;
  if (rc.provider === 'none') return { reranker: null, reason: 'turned off (RERANKER=none)' };
  try {
    const reranker = await loadTransformersReranker({
      model: rc.model,
      modelDir: rc.modelDir,
      cacheDir: path.join(config.dataDir, 'models'),
      probeTimeoutMs: envInt('EMBEDDING_PROBE_TIMEOUT_MS', 3000),
    });
    return { reranker };
  } catch (err) {
    const reason = errorMessage(err);
    console.warn(`[reranker] no reranking: ${reason}`);
    return { reranker: null, reason };
  }
}

let memo: { key: string; promise: Promise<RerankerStatus> } | undefined;

/**
 * The process-wide reranker for the current configuration, or null with the reason. The answer
 * (either way) is kept until the configuration changes, so an offline machine probes the hub once.
 */
export function getReranker(): Promise<RerankerStatus> {
  const config = getConfig();
  const key = JSON.stringify({ reranker: config.reranker, dataDir: config.dataDir });
  if (!memo || memo.key !== key) memo = { key, promise: createReranker(config) };
  return memo.promise;
}

/** Forgets the memoised reranker, for tests. @internal */
export function resetReranker(): void {
  memo = undefined;
}
