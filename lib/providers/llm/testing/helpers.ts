/**
 * Test doubles shared by this folder's tests: a fake fetch that records requests, canned provider
 * responses, a log capture and stream builders. No network anywhere.
 */
import { createLogger, type Logger } from '../log';
import type { StreamPart } from '../sdk-types';

export interface CapturedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Responder = (req: CapturedRequest, n: number, signal?: AbortSignal) => Response | Promise<Response>;

/** A fetch that records each request and answers with `respond(request, callNumber)`; honours abort. */
export function fakeFetch(respond: Responder) {
  const calls: CapturedRequest[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    const req: CapturedRequest = {
      url: String(input instanceof Request ? input.url : input),
      method: init?.method ?? 'GET',
      headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    calls.push(req);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const answer = Promise.resolve(respond(req, calls.length, signal));
    if (!signal) return answer;
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      answer.then(resolve, reject);
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

export const never = () => new Promise<Response>(() => {});

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function sse(events: unknown[]): Response {
  const text = events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

export function geminiAnswer(text: string) {
  return {
    candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 8, totalTokenCount: 20 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-1',
  };
}

export function openaiAnswer(text: string, model = 'llama3.2') {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

export function openaiError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ error: { message, type: 'error', code: String(status) } }, status, headers);
}

/** A logger that keeps parsed lines in memory. */
export function captureLogs(
  level: 'debug' | 'info' = 'info',
  secrets: string[] = [],
): { logger: Logger; lines: Array<Record<string, unknown>>; raw: string[] } {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const logger = createLogger({
    level,
    secrets,
    write: (line) => {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  return { logger, lines, raw };
}

export const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** Stream parts of a plain text answer, split into deltas. */
export function textParts(deltas: string[], id = 't0'): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id, delta })),
    { type: 'text-end', id },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(7, deltas.length) },
  ];
}

/** A stream that emits `parts` and then errors with `error` (or hangs forever if error is 'hang'). */
export function streamOf(parts: StreamPart[], end?: { error: unknown } | 'hang'): ReadableStream<StreamPart> {
  let i = 0;
  return new ReadableStream<StreamPart>({
    pull(controller) {
      if (i < parts.length) return controller.enqueue(parts[i++]);
      if (end === 'hang') return new Promise<void>(() => {});
      if (end) return controller.error(end.error);
      controller.close();
    },
  });
}

/** A tiny but real PNG header + payload; the providers only base64 it. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
