/**
 * The LlmClient: an AI SDK model wrapped (wrapLanguageModel) in one middleware that gives every
 * generateText / streamText / generateObject call
 *   - a per-call timeout (combined with the caller's abortSignal),
 *   - retries with exponential backoff + jitter on transient errors (429, 408, 5xx, network),
 *     honouring Retry-After; never on other 4xx, never after an abort or the timeout (the policy is
 *     ../retry.ts, shared with the embedders),
 *   - one structured log line per call (model, provider, tokens, latency, attempts, outcome),
 *   - record / replay of calls to JSONL (see cassette.ts),
 *   - a vision guard: a client without vision rejects image input instead of sending it.
 *
 * For LLM/VLM calls, this loop is the only retrier: callers pass `maxRetries: 0` to generateText /
 * streamText, and even with the SDK's default the attempts do not multiply, because errors leaving
 * the middleware are LlmCallError (not APICallError), which the SDK never retries.
 *
 * Timeout semantics: for generate calls `timeoutMs` bounds the whole call, all attempts and
 * backoff included. For streams it bounds the time to the first content chunk (attempts included)
 * and then every gap between chunks, so a long answer that keeps streaming is not cut off.
 */
import { wrapLanguageModel } from 'ai';
import type { LlmClient } from '../types';
import {
  CassetteRecorder,
  ReplayStore,
  describePrompt,
  normalizeRequest,
  requestKey,
  responseFromChunks,
  responseFromGenerate,
  toGenerateResult,
  toStreamResult,
  type CassetteEntry,
  type RecordedRequest,
} from './cassette';
import { LlmCallError, isAbortError } from './errors';
import { redact, withoutSecrets } from '../redact';
import { createLogger, type Logger } from './log';
import { abortable } from '@/lib/runtime/abort';
import { classifyError, RETRY_DEFAULTS, retryPolicy, withRetry, type AttemptResult, type RetryPolicy } from '../retry';
import type { CallOptions, FinishReason, LanguageModelV3, Middleware, StreamPart, StreamResult, Usage } from './sdk-types';

export interface LlmClientOptions {
  /** Which backend this is, for LlmClient.provider and the logs. Default 'test'. */
  provider?: LlmClient['provider'];
  /** The model accepts image parts (VLM role). Default false: image input is rejected. */
  vision?: boolean;
  /** Logged and stored with recordings. Default 'vlm' when vision, else 'llm'. */
  role?: 'llm' | 'vlm';
  /** Per-call deadline in ms (see the header for streams). 0 disables it. Default 60 000. */
  timeoutMs?: number;
  /** Total model calls per request, first one included. Default 3. */
  maxAttempts?: number;
  /** Backoff before the 2nd attempt, doubling after. Default 500 ms. */
  initialBackoffMs?: number;
  /** Cap of the exponential backoff. Default 8 000 ms. */
  maxBackoffMs?: number;
  /** Longest Retry-After we wait for; longer ones fail at once. Default 30 000 ms. */
  maxRetryAfterMs?: number;
  /** Append every successful call to this JSONL file. */
  record?: string;
  /** Serve every call from this JSONL file; the model is never called. */
  replay?: string;
  logger?: Logger;
  /** API keys: scrubbed from log lines (default logger) and from the errors the client throws. */
  secrets?: Array<string | undefined>;
  /** Jitter source, for deterministic tests. */
  random?: () => number;
  /** Waits out a backoff; tests inject one that records the delay and returns at once. */
  sleep?: RetryPolicy['sleep'];
}

const LLM_DEFAULTS = { timeoutMs: 60_000, ...RETRY_DEFAULTS } as const;

interface Ctx {
  provider: string;
  role: 'llm' | 'vlm';
  vision: boolean;
  timeoutMs: number;
  retry: RetryPolicy;
  recorder?: CassetteRecorder;
  replay?: ReplayStore;
  logger: Logger;
  secrets: Array<string | undefined>;
}

export function createLlmClient(model: LanguageModelV3, options: LlmClientOptions = {}): LlmClient {
  if (options.record && options.replay) {
    throw new Error('Set only one of MC_LLM_RECORD and MC_LLM_REPLAY: a replayed call is never recorded again');
  }
  const vision = options.vision ?? false;
  const int = (name: string, v: number | undefined, fallback: number, min: number) => {
    const n = v ?? fallback;
    if (!Number.isFinite(n) || n < min) throw new Error(`LLM client option ${name} must be a number >= ${min}, got ${v}`);
    return n;
  };
  const ctx: Ctx = {
    provider: options.provider ?? 'test',
    role: options.role ?? (vision ? 'vlm' : 'llm'),
    vision,
    timeoutMs: int('timeoutMs', options.timeoutMs, LLM_DEFAULTS.timeoutMs, 0),
    retry: retryPolicy({
      maxAttempts: Math.floor(int('maxAttempts', options.maxAttempts, LLM_DEFAULTS.maxAttempts, 1)),
      initialBackoffMs: int('initialBackoffMs', options.initialBackoffMs, LLM_DEFAULTS.initialBackoffMs, 0),
      maxBackoffMs: int('maxBackoffMs', options.maxBackoffMs, LLM_DEFAULTS.maxBackoffMs, 0),
      maxRetryAfterMs: int('maxRetryAfterMs', options.maxRetryAfterMs, LLM_DEFAULTS.maxRetryAfterMs, 0),
      random: options.random,
      sleep: options.sleep,
    }),
    recorder: options.record ? new CassetteRecorder(options.record) : undefined,
    replay: options.replay ? new ReplayStore(options.replay) : undefined,
    logger: options.logger ?? createLogger({ secrets: options.secrets }),
    secrets: options.secrets ?? [],
  };
  return {
    provider: options.provider ?? 'test',
    modelId: model.modelId,
    vision,
    model: wrapLanguageModel({ model, middleware: llmClientMiddleware(ctx) }),
  };
}

// ---------------------------------------------------------------------------------------------

/** Caller's signal + our own timer. `arm()` (re)starts the timer; the stream uses it as idle timer. */
class Deadline {
  readonly signal: AbortSignal;
  timedOut = false;
  private ctrl = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly caller: AbortSignal | undefined,
    readonly ms: number,
  ) {
    this.signal = caller ? AbortSignal.any([caller, this.ctrl.signal]) : this.ctrl.signal;
  }

  arm(): void {
    this.clear();
    if (this.ms <= 0 || this.timedOut) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.ctrl.abort(new DOMException(`timed out after ${this.ms} ms`, 'TimeoutError'));
    }, this.ms);
    this.timer.unref?.();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

type Outcome = 'ok' | 'replayed' | 'error' | 'timeout' | 'aborted' | 'cancelled';

/** Bookkeeping for one call; writes exactly one log line. */
class CallLog {
  attempts = 0;
  private readonly start = performance.now();
  private logged = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly model: LanguageModelV3,
    readonly mode: 'generate' | 'stream',
  ) {}

  get latencyMs(): number {
    return Math.round(performance.now() - this.start);
  }

  done(outcome: Outcome, usage?: Usage, finishReason?: FinishReason, extra?: Record<string, unknown>): void {
    if (this.logged) return;
    this.logged = true;
    const fields = {
      role: this.ctx.role,
      provider: this.ctx.provider,
      sdkProvider: this.model.provider,
      model: this.model.modelId,
      mode: this.mode,
      outcome,
      attempts: this.attempts,
      latencyMs: this.latencyMs,
      inputTokens: usage?.inputTokens.total,
      outputTokens: usage?.outputTokens.total,
      finishReason: finishReason?.unified,
      ...(this.ctx.recorder ? { recorded: outcome === 'ok' } : {}),
      ...extra,
    };
    if (outcome === 'ok' || outcome === 'replayed' || outcome === 'cancelled') this.ctx.logger.info('llm.call', fields);
    else if (outcome === 'aborted') this.ctx.logger.warn('llm.call', fields);
    else this.ctx.logger.error('llm.call', fields);
  }

  fail(error: unknown): void {
    const outcome: Outcome = isAbortError(error) ? 'aborted' : LlmCallError.isInstance(error) && error.code === 'llm:timeout' ? 'timeout' : 'error';
    this.done(outcome, undefined, undefined, {
      errorCode: LlmCallError.isInstance(error) ? error.code : undefined,
      statusCode: LlmCallError.isInstance(error) ? error.statusCode : undefined,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

function hasImage(prompt: CallOptions['prompt']): boolean {
  return prompt.some((m) => m.role !== 'system' && m.content.some((p) => p.type === 'file' && p.mediaType.startsWith('image/')));
}

/** A caller's abort or our deadline turns any error into the final one; undefined otherwise. */
function terminalError(error: unknown, deadline: Deadline, call: CallLog, ctx: Ctx, modelId: string, midStream = false): unknown {
  const caller = deadline.caller;
  if (caller?.aborted) {
    if (caller.reason instanceof Error) return caller.reason;
    return isAbortError(error) ? error : new DOMException('The operation was aborted', 'AbortError');
  }
  if (deadline.timedOut && midStream) {
    return new LlmCallError('llm:timeout', `${modelId} stream stalled: no chunk for ${deadline.ms} ms; raise MC_LLM_TIMEOUT_MS if the model is just slow`, {
      attempts: call.attempts,
      transient: true,
      cause: error,
    });
  }
  if (deadline.timedOut) {
    return new LlmCallError(
      'llm:timeout',
      `${modelId} did not answer within ${deadline.ms} ms (attempt ${call.attempts} of ${ctx.retry.maxAttempts}); raise MC_LLM_TIMEOUT_MS if the model is just slow`,
      { attempts: call.attempts, transient: true, cause: error },
    );
  }
  return undefined;
}

function finalError(error: unknown, call: CallLog, ctx: Ctx, modelId: string, note?: string): LlmCallError {
  const c = classifyError(error);
  // The provider's message reaches logs, chat events and the UI: a key it echoes must not.
  const reason = redact(error instanceof Error ? error.message : String(error), ctx.secrets);
  const status = c.statusCode ? `HTTP ${c.statusCode}: ` : '';
  const tries = c.retryable ? ` (gave up after ${call.attempts} attempt${call.attempts === 1 ? '' : 's'}${note ? `; ${note}` : ''})` : '';
  return new LlmCallError(c.code, `${modelId} (${ctx.provider}) failed: ${status}${reason}${tries}`, {
    attempts: call.attempts,
    statusCode: c.statusCode,
    transient: c.retryable,
    cause: withoutSecrets(error, ctx.secrets),
  });
}

/** Runs `fn` until it succeeds, a non-transient error, the last attempt, an abort or the deadline. */
async function withRetries<T>(ctx: Ctx, call: CallLog, deadline: Deadline, modelId: string, fn: (signal: AbortSignal) => PromiseLike<T>): Promise<T> {
  const attempt = async (n: number): Promise<AttemptResult<T>> => {
    try {
      if (deadline.signal.aborted) throw deadline.signal.reason; // never start a call that is already cancelled
      call.attempts = n;
      return { ok: true, value: await abortable(fn(deadline.signal), deadline.signal) };
    } catch (error) {
      const terminal = terminalError(error, deadline, call, ctx, modelId);
      if (terminal) throw terminal;
      return { ok: false, cause: error };
    }
  };
  return withRetry(ctx.retry, attempt, {
    signal: deadline.signal,
    giveUp: ({ cause }, decision) =>
      finalError(cause, call, ctx, modelId, decision.why === 'retry-after' ? `Retry-After exceeds ${ctx.retry.maxRetryAfterMs} ms` : undefined),
    onRetry: (next, n) =>
      ctx.logger.debug('llm.retry', {
        role: ctx.role,
        model: modelId,
        attempt: n,
        delayMs: next.delayMs,
        errorCode: next.classified.code,
        statusCode: next.classified.statusCode,
      }),
    onCancel: (e) => terminalError(e, deadline, call, ctx, modelId) ?? e,
  });
}

// Stream parts that carry no content yet: a stream failing after only these is retried.
const PRELUDE = new Set<StreamPart['type']>(['stream-start', 'response-metadata', 'raw', 'text-start', 'reasoning-start', 'tool-input-start']);

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(typeof value === 'string' ? value : JSON.stringify(value));
}

function llmClientMiddleware(ctx: Ctx): Middleware {
  const guard = (params: CallOptions, modelId: string) => {
    if (!ctx.vision && hasImage(params.prompt)) {
      throw new LlmCallError('llm:vision_unsupported', `${modelId} is configured as a text-only ${ctx.role.toUpperCase()}: send page images through getVLM()`);
    }
  };

  const replayed = (params: CallOptions, request: RecordedRequest, key: string, modelId: string): CassetteEntry => {
    const entry = ctx.replay!.take(key);
    if (entry) return entry;
    const { total, forModel } = ctx.replay!.countForModel(modelId);
    throw new LlmCallError(
      'llm:replay_miss',
      `No recorded response for this ${ctx.role.toUpperCase()} request in ${ctx.replay!.file} (key ${key}, model ${modelId}, ` +
        `last user text "${describePrompt(params.prompt)}"; the file has ${total} call(s), ${forModel} for this model). ` +
        `The prompt, settings or model changed since recording: re-record with MC_LLM_RECORD=${ctx.replay!.file} against a real model.`,
    );
  };

  const entryFor = (call: CallLog, key: string, request: RecordedRequest, modelId: string, response: CassetteEntry['response']): CassetteEntry => ({
    v: 1,
    key,
    recordedAt: new Date().toISOString(),
    role: ctx.role,
    provider: ctx.provider,
    modelId,
    mode: call.mode,
    latencyMs: call.latencyMs,
    request,
    response,
  });

  return {
    specificationVersion: 'v3',

    // `model` is the inner (unwrapped) model; it is called directly with a per-attempt signal.
    wrapGenerate: async ({ params, model }) => {
      const call = new CallLog(ctx, model, 'generate');
      const deadline = new Deadline(params.abortSignal, ctx.timeoutMs);
      try {
        guard(params, model.modelId);
        const request = ctx.recorder || ctx.replay ? normalizeRequest(model.modelId, params) : undefined;
        const key = request ? requestKey(request) : '';
        if (ctx.replay) {
          const result = toGenerateResult(replayed(params, request!, key, model.modelId).response);
          call.done('replayed', result.usage, result.finishReason);
          return result;
        }
        deadline.arm();
        const result = await withRetries(ctx, call, deadline, model.modelId, (signal) => model.doGenerate({ ...params, abortSignal: signal }));
        ctx.recorder?.append(entryFor(call, key, request!, model.modelId, responseFromGenerate(result)));
        call.done('ok', result.usage, result.finishReason);
        return result;
      } catch (error) {
        call.fail(error);
        throw error;
      } finally {
        deadline.clear();
      }
    },

    wrapStream: async ({ params, model }) => {
      const call = new CallLog(ctx, model, 'stream');
      const deadline = new Deadline(params.abortSignal, ctx.timeoutMs);
      const modelId = model.modelId;
      let request: RecordedRequest | undefined;
      let key = '';
      let opened: { result: StreamResult; reader: ReadableStreamDefaultReader<StreamPart>; head: StreamPart[]; ended: boolean };
      try {
        guard(params, modelId);
        request = ctx.recorder || ctx.replay ? normalizeRequest(modelId, params) : undefined;
        key = request ? requestKey(request) : '';
        if (ctx.replay) {
          const entry = replayed(params, request!, key, modelId);
          call.done('replayed', entry.response.usage, entry.response.finishReason);
          return toStreamResult(entry.response);
        }
        deadline.arm();
        // An attempt succeeds once the first content part arrives; failing before that is retried.
        opened = await withRetries(ctx, call, deadline, modelId, async (signal) => {
          const result = await model.doStream({ ...params, abortSignal: signal });
          const reader = result.stream.getReader();
          const head: StreamPart[] = [];
          try {
            for (;;) {
              const r = await abortable(reader.read(), signal);
              if (r.done) return { result, reader, head, ended: true };
              if (r.value.type === 'error') throw asError(r.value.error);
              head.push(r.value);
              if (!PRELUDE.has(r.value.type)) return { result, reader, head, ended: false };
            }
          } catch (e) {
            reader.cancel(e).catch(() => {});
            throw e;
          }
        });
      } catch (error) {
        deadline.clear();
        call.fail(error);
        throw error;
      }

      const { result, reader, head, ended } = opened;
      const seen: StreamPart[] = [];
      let streamError: unknown;
      let finish: Extract<StreamPart, { type: 'finish' }> | undefined;
      const observe = (part: StreamPart) => {
        seen.push(part);
        if (part.type === 'finish') finish = part;
        if (part.type === 'error') streamError ??= part.error;
      };
      const complete = () => {
        deadline.clear();
        if (streamError !== undefined) {
          call.fail(asError(streamError));
          return;
        }
        if (ctx.recorder) ctx.recorder.append(entryFor(call, key, request!, modelId, responseFromChunks(seen)));
        call.done('ok', finish?.usage, finish?.finishReason);
      };

      deadline.arm(); // from here on: idle timeout between chunks
      const stream = new ReadableStream<StreamPart>({
        start(controller) {
          for (const part of head) {
            observe(part);
            controller.enqueue(part);
          }
          if (ended) {
            complete();
            controller.close();
          }
        },
        async pull(controller) {
          try {
            const r = await abortable(reader.read(), deadline.signal);
            if (r.done) {
              complete();
              controller.close();
              return;
            }
            deadline.arm();
            observe(r.value);
            controller.enqueue(r.value);
          } catch (e) {
            deadline.clear();
            const error = terminalError(e, deadline, call, ctx, modelId, true) ?? withoutSecrets(e, ctx.secrets);
            call.fail(error);
            reader.cancel(error).catch(() => {});
            // A caller's abort keeps the SDK's abort semantics; other failures after content become an
            // error part (what streamText reports through onError) instead of crashing the consumer.
            if (isAbortError(error)) controller.error(error);
            else {
              controller.enqueue({ type: 'error', error });
              controller.close();
            }
          }
        },
        cancel(reason) {
          deadline.clear();
          call.done('cancelled', finish?.usage, finish?.finishReason);
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}
