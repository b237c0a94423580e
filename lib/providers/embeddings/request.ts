/**
 * One embeddings request through the AI SDK, with a per-attempt timeout and the retry policy of
 * every model call (../retry.ts): 429, 408, 5xx, timeouts and network errors are retried with
 * backoff (honouring Retry-After); a 4xx or a malformed answer fails at once. The SDK's own retries
 * are off (maxRetries: 0), so attempts never multiply. Errors name the server and keep the key out.
 */
import { embed, embedMany, type EmbeddingModel } from 'ai';
import { giveUpNote, withRetry, type AttemptResult, type RetryPolicy } from '../retry';
import { redact, withoutSecrets } from '../redact';
import { errorMessage } from './util';

export interface EmbedTransport {
  /** Names the server and model in errors, e.g. "embedding server host:port (model)". */
  label: string;
  model: EmbeddingModel;
  /** Per-attempt deadline in ms. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** API keys: kept out of the errors (a server may echo them back). */
  secrets: Array<string | undefined>;
  /** Passed to embed / embedMany (e.g. Gemini's task type). */
  providerOptions?: Parameters<typeof embed>[0]['providerOptions'];
  /** Parallel requests of one embedMany (it splits large batches). Default 2. */
  maxParallelCalls?: number;
}

/** Embeds `values` (one vector per value, in order), retrying under the transport's policy. */
export async function embedRequest(t: EmbedTransport, values: string[], signal?: AbortSignal): Promise<number[][]> {
  const attempt = async (): Promise<AttemptResult<number[][]>> => {
    const timeout = AbortSignal.timeout(t.timeoutMs);
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const common = { model: t.model, abortSignal, providerOptions: t.providerOptions, maxRetries: 0 };
    try {
      const embeddings =
        values.length === 1
          ? [(await embed({ ...common, value: values[0] })).embedding]
          : (await embedMany({ ...common, values, maxParallelCalls: t.maxParallelCalls ?? 2 })).embeddings;
      if (embeddings.length === values.length) return { ok: true, value: embeddings };
      // A server that drops inputs would shift every later vector onto the wrong text; asking again will not help.
      return {
        ok: false,
        cause: undefined,
        transient: false,
        error: new Error(`${t.label} returned ${embeddings.length} embeddings for ${values.length} texts`),
      };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const what = timeout.aborted ? `did not answer within ${t.timeoutMs} ms` : `failed: ${errorMessage(err)}`;
      // The raw error is the cause (for Retry-After); the thrown one carries a scrubbed copy.
      const error = new Error(`${t.label} ${redact(what, t.secrets)}`, { cause: withoutSecrets(err, t.secrets) });
      return { ok: false, cause: err, transient: timeout.aborted ? true : undefined, error };
    }
  };
  return withRetry(t.retry, attempt, {
    signal,
    giveUp: ({ cause, error }, decision, attempts) => {
      const failure = error as Error;
      failure.message += giveUpNote(decision, cause, attempts);
      return failure;
    },
  });
}
