/**
 * Interceptors wrap every tool call (outermost first): audit → input validation → deadline →
 * size guard → exception capture → the tool. Each sees the call and the output stream, so cross-
 * cutting rules live here once instead of in six tools.
 */
import { z } from 'zod';
import type { AuditRecord, ToolOutcome } from './events';
import { abortable } from '@/lib/runtime/abort';
import type { AnyTool, ToolContext, ToolOutput, TreeData } from './contract';
import { truncate } from '@/lib/text/format';

/** The record the interceptors share; validation replaces `input` with the parsed value. */
export interface ToolCall {
  tool: AnyTool;
  input: unknown;
  tree: TreeData;
  ctx: ToolContext;
}

export type ToolRunner = (call: ToolCall) => AsyncGenerator<ToolOutput>;
export type ToolInterceptor = (call: ToolCall, next: ToolRunner) => AsyncGenerator<ToolOutput>;

const runTool: ToolRunner = (call) => call.tool.run(call.tree, call.input, call.ctx);

/** Builds one runner from interceptors listed outermost first. */
export function chain(interceptors: ToolInterceptor[], terminal: ToolRunner = runTool): ToolRunner {
  return interceptors.reduceRight<ToolRunner>((next, interceptor) => (call) => interceptor(call, next), terminal);
}

class ToolTimeoutError extends Error {
  constructor(tool: string, ms: number) {
    super(`${tool} timed out after ${ms} ms`);
    this.name = 'ToolTimeoutError';
  }
}

/** Zod validation with the schema's defaults; a bad input is a recoverable error the decider can fix. */
const validateInput: ToolInterceptor = async function* (call, next) {
  const parsed = call.tool.inputs.safeParse(call.input ?? {});
  if (!parsed.success) {
    yield {
      type: 'error',
      code: 'invalid_input',
      message: `invalid input for ${call.tool.name}: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ').trim()}`,
      recoverable: true,
      suggestion: `call ${call.tool.name} again with inputs that match its schema`,
    };
    return;
  }
  call.input = parsed.data;
  yield* next(call);
};

/**
 * Per-tool deadline. The tool gets its own signal (aborted on the deadline or on cancellation);
 * the guard stops waiting at once either way, so a provider that ignores signals cannot hang the turn.
 */
function deadlineGuard(defaultMs: number): ToolInterceptor {
  return async function* (call, next) {
    const ms = call.tool.timeoutMs ?? defaultMs;
    const parent = call.ctx.signal;
    const controller = new AbortController();
    const onParentAbort = () => controller.abort(parent.reason);
    if (parent.aborted) onParentAbort();
    else parent.addEventListener('abort', onParentAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new ToolTimeoutError(call.tool.name, ms)), ms);
    const iterator = next({ ...call, ctx: { ...call.ctx, signal: controller.signal } });
    let finished = false;
    try {
      while (true) {
        const step = await abortable(iterator.next(), controller.signal);
        if (step.done) {
          finished = true;
          return;
        }
        yield step.value;
      }
    } catch (err) {
      if (parent.aborted || !(controller.signal.reason instanceof ToolTimeoutError)) throw err;
      finished = true;
      yield {
        type: 'error',
        code: 'timeout',
        message: controller.signal.reason.message,
        recoverable: true,
        suggestion: 'try a narrower query, fewer results, or another tool',
      };
    } finally {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
      // Let an abandoned tool unwind in the background; awaiting a hung one would hang us too.
      if (!finished) void iterator.return(undefined).catch(() => undefined);
    }
  };
}

interface SizeLimits {
  maxObjects: number;
  maxTextChars: number;
  maxMetadataChars: number;
}

const DEFAULT_SIZE_LIMITS: SizeLimits = { maxObjects: 40, maxTextChars: 4000, maxMetadataChars: 8000 };

/** Caps result size so one tool cannot flood the environment, the prompt or the stored session. */
function sizeGuard(limits: SizeLimits = DEFAULT_SIZE_LIMITS): ToolInterceptor {
  return async function* (call, next) {
    for await (const out of next(call)) {
      if (out.type !== 'result') {
        yield out;
        continue;
      }
      let truncated = out.objects.length > limits.maxObjects;
      const objects = out.objects.slice(0, limits.maxObjects).map((o) => {
        if (!o.text || o.text.length <= limits.maxTextChars) return o;
        truncated = true;
        return { ...o, text: truncate(o.text, limits.maxTextChars) };
      });
      let metadata = out.metadata;
      const metadataChars = JSON.stringify(metadata ?? {}).length;
      if (metadataChars > limits.maxMetadataChars) {
        truncated = true;
        metadata = { truncated: true, keys: Object.keys(metadata), originalChars: metadataChars };
      }
      yield { ...out, objects, metadata: truncated ? { ...metadata, truncated: true } : metadata, llmMessage: truncate(out.llmMessage, 4000) };
    }
  };
}

/** Turns a thrown exception into a recoverable error output (errors are feedback, not crashes). */
const captureExceptions: ToolInterceptor = async function* (call, next) {
  try {
    yield* next(call);
  } catch (err) {
    // Aborts belong to the deadline guard and the loop.
    if (call.ctx.signal.aborted) throw err;
    yield {
      type: 'error',
      code: 'exception',
      message: `${call.tool.name} failed: ${err instanceof Error ? err.message : String(err)}`,
      recoverable: true,
      suggestion: 'retry once, or use another tool',
    };
  }
};

/** Records tool, inputs, duration, outcome and result size of every call. */
function audit(records: AuditRecord[], now: () => number = () => performance.now()): ToolInterceptor {
  return async function* (call, next) {
    const start = now();
    let outcome: ToolOutcome = 'ok';
    let message: string | undefined;
    let objects = 0;
    let truncated = false;
    let completed = false;
    try {
      for await (const out of next(call)) {
        if (out.type === 'error') {
          outcome = out.code === 'invalid_input' ? 'invalid_input' : out.code === 'timeout' ? 'timeout' : 'error';
          message = out.message;
        } else if (out.type === 'result') {
          objects += out.objects.length;
          if (out.metadata?.truncated) truncated = true;
        }
        yield out;
      }
      completed = true;
    } catch (err) {
      outcome = call.ctx.signal.aborted ? 'cancelled' : 'error';
      message = err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      if (!completed && outcome === 'ok' && call.ctx.signal.aborted) outcome = 'cancelled';
      records.push({
        tool: call.tool.name,
        inputs: toPlainJson(call.input),
        ms: Math.round(now() - start),
        outcome,
        ...(message ? { message } : {}),
        objects,
        ...(truncated ? { truncated } : {}),
      });
    }
  };
}

/** Inputs may hold anything an LLM produced; the audit must stay plain JSON. */
function toPlainJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return String(value);
  }
}

export interface InterceptorOptions {
  audit: AuditRecord[];
  timeoutMs: number;
  limits?: SizeLimits;
  now?: () => number;
}

export function defaultInterceptors(opts: InterceptorOptions): ToolInterceptor[] {
  return [audit(opts.audit, opts.now), validateInput, deadlineGuard(opts.timeoutMs), sizeGuard(opts.limits), captureExceptions];
}
