/**
 * The reranker role. Unlike the embedder there is no fallback model: with no cross-encoder to be
 * had (RERANKER=none, not on disk, hub disabled or unreachable) search simply skips the stage,
 * so the factory never throws — it returns null and says why, for /api/health and the trail.
 */
import { getProviderConfig, roleSpec } from '../roles';
import type { ProviderConfig } from '../descriptor';
import { errorMessage } from '../embeddings/util';
import type { Reranker } from '../types';

export type RerankerStatus = { reranker: Reranker; reason?: undefined } | { reranker: null; reason: string };

/** Builds the configured reranker (no memoisation; getReranker memoises). Never throws. */
export async function createReranker(config: ProviderConfig = getProviderConfig()): Promise<RerankerStatus> {
  const rc = config.reranker;
  try {
    const reranker = await roleSpec('reranker', rc.provider).create(rc, { dataDir: config.dataDir });
    // A provider that makes no reranker turns the stage off; its detail says so.
    return reranker ? { reranker } : { reranker: null, reason: rc.detail };
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
  const config = getProviderConfig();
  const key = JSON.stringify({ reranker: config.reranker, dataDir: config.dataDir });
  if (!memo || memo.key !== key) memo = { key, promise: createReranker(config) };
  return memo.promise;
}

/** Forgets the memoised reranker, for tests. @internal */
export function resetReranker(): void {
  memo = undefined;
}
