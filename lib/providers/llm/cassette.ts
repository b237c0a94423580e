/**
 * Record / replay of model calls as JSONL "cassettes".
 *
 * A request is reduced to `{ model, prompt, settings }` in canonical form (object keys sorted,
 * undefined dropped, binary data replaced by its sha256 + length), and its key is the first 32
 * hex chars of sha256 of that JSON. The transport (generate vs stream), abort signals, headers
 * and raw-chunk flags are not part of the key, so a call recorded with generateText replays under
 * streamText and vice versa. One line per call:
 *   { v, key, recordedAt, role, provider, modelId, mode, latencyMs, request, response }
 * where response = { content, finishReason, usage, warnings, providerMetadata?, metadata?, chunks? }
 * (chunks only for streamed calls: the stream parts as the provider emitted them).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { jsonLines } from '../../runtime/jsonl';
import type { CallOptions, Content, FinishReason, GenerateResult, StreamPart, StreamResult, Usage } from './sdk-types';

export interface RecordedRequest {
  model: string;
  prompt: unknown;
  settings: Record<string, unknown>;
}

export interface RecordedResponse {
  content: unknown[];
  finishReason: FinishReason;
  usage: Usage;
  warnings: unknown[];
  providerMetadata?: unknown;
  metadata?: { id?: string; modelId?: string; timestamp?: string };
  chunks?: unknown[];
}

export interface CassetteEntry {
  v: 1;
  key: string;
  recordedAt: string;
  role: 'llm' | 'vlm';
  provider: string;
  modelId: string;
  mode: 'generate' | 'stream';
  latencyMs: number;
  request: RecordedRequest;
  response: RecordedResponse;
}

// ---------------------------------------------------------------------------------------------
// Canonical request and key

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

function bytesRef(bytes: Uint8Array) {
  return { sha256: sha256(bytes), bytes: bytes.byteLength };
}

/**
 * File data in the prompt as a stable reference. The SDK may hand the model the same image as a
 * Uint8Array or a base64 string depending on how the caller passed it; both hash the same bytes.
 */
function fileDataRef(data: unknown): unknown {
  if (data instanceof Uint8Array) return bytesRef(data);
  if (data instanceof URL) return { url: data.href };
  if (typeof data === 'string') {
    const m = /^data:[^,]*?(;base64)?,(.*)$/is.exec(data);
    if (m) return bytesRef(m[1] ? Buffer.from(m[2], 'base64') : Buffer.from(decodeURIComponent(m[2]), 'utf8'));
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(data)) return { url: data };
    return bytesRef(Buffer.from(data, 'base64'));
  }
  return data;
}

/** Sorted keys, no undefined, binary as a hash reference: the same value always prints the same. */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (value instanceof Uint8Array) return bytesRef(value);
  if (value instanceof URL) return value.href;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonical(v)));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined && typeof v !== 'function') out[k] = canonical(v);
  }
  return out;
}

function normalizePrompt(prompt: CallOptions['prompt']): unknown {
  return prompt.map((message) => {
    if (message.role === 'system') return message;
    return {
      ...message,
      content: message.content.map((part) => (part.type === 'file' ? { ...part, data: fileDataRef(part.data) } : part)),
    };
  });
}

/** The part of a call that determines its answer. */
export function normalizeRequest(modelId: string, params: CallOptions): RecordedRequest {
  return canonical({
    model: modelId,
    prompt: normalizePrompt(params.prompt),
    settings: {
      maxOutputTokens: params.maxOutputTokens,
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      topP: params.topP,
      topK: params.topK,
      presencePenalty: params.presencePenalty,
      frequencyPenalty: params.frequencyPenalty,
      responseFormat: params.responseFormat,
      seed: params.seed,
      tools: params.tools,
      toolChoice: params.toolChoice,
      providerOptions: params.providerOptions,
    },
  }) as RecordedRequest;
}

export function requestKey(request: RecordedRequest): string {
  return sha256(JSON.stringify(canonical(request))).slice(0, 32);
}

// ---------------------------------------------------------------------------------------------
// Serialising responses

const toBase64 = (data: string | Uint8Array) => (typeof data === 'string' ? data : Buffer.from(data).toString('base64'));

function serializeContent(part: Content): unknown {
  return part.type === 'file' ? { ...part, data: toBase64(part.data) } : part;
}

function serializeChunk(part: StreamPart): unknown | undefined {
  switch (part.type) {
    case 'raw':
      return undefined; // provider-internal, often large, never needed to replay
    case 'file':
      return { ...part, data: toBase64(part.data) };
    case 'response-metadata':
      return { ...part, timestamp: part.timestamp?.toISOString() };
    case 'error': {
      const e = part.error;
      return { type: 'error', error: { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) } };
    }
    default:
      return part;
  }
}

function reviveChunk(raw: unknown): StreamPart {
  const part = raw as StreamPart & { timestamp?: string | Date; error?: { name?: string; message?: string } };
  if (part.type === 'response-metadata' && typeof part.timestamp === 'string') return { ...part, timestamp: new Date(part.timestamp) } as StreamPart;
  if (part.type === 'error') {
    const err = new Error(part.error?.message ?? 'recorded stream error');
    err.name = part.error?.name ?? 'Error';
    return { type: 'error', error: err };
  }
  return part as StreamPart;
}

function fillUsage(u: Partial<Usage> | undefined): Usage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined, ...u?.inputTokens },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined, ...u?.outputTokens },
    ...(u?.raw ? { raw: u.raw } : {}),
  };
}

function metadataOf(m: { id?: string; modelId?: string; timestamp?: Date } | undefined) {
  if (!m) return undefined;
  const out = { id: m.id, modelId: m.modelId, timestamp: m.timestamp?.toISOString() };
  return canonical(out) as RecordedResponse['metadata'];
}

export function responseFromGenerate(result: GenerateResult): RecordedResponse {
  return {
    content: result.content.map(serializeContent),
    finishReason: result.finishReason,
    usage: result.usage,
    warnings: result.warnings,
    providerMetadata: result.providerMetadata,
    metadata: metadataOf(result.response),
  };
}

/** Folds stream parts into the equivalent generate result, so a streamed call replays under generateText too. */
export function responseFromChunks(parts: StreamPart[]): RecordedResponse {
  const content: Content[] = [];
  type Open = { type: 'text' | 'reasoning'; text: string; providerMetadata?: unknown };
  const open = new Map<string, Open>();
  let finish: Extract<StreamPart, { type: 'finish' }> | undefined;
  let warnings: unknown[] = [];
  let metadata: RecordedResponse['metadata'];
  for (const part of parts) {
    switch (part.type) {
      case 'stream-start':
        warnings = part.warnings;
        break;
      case 'response-metadata':
        metadata = metadataOf(part);
        break;
      case 'text-start':
      case 'reasoning-start': {
        const kind = part.type === 'text-start' ? 'text' : 'reasoning';
        const entry: Open = { type: kind, text: '', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) };
        open.set(`${kind}:${part.id}`, entry);
        content.push(entry as unknown as Content); // same object: later deltas fill it in place
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
        const entry = open.get(`${kind}:${part.id}`);
        if (entry) entry.text += part.delta;
        else {
          const fresh: Open = { type: kind, text: part.delta };
          open.set(`${kind}:${part.id}`, fresh);
          content.push(fresh as unknown as Content);
        }
        break;
      }
      case 'tool-call':
      case 'tool-result':
      case 'tool-approval-request':
      case 'file':
      case 'source':
        content.push(part as Content);
        break;
      case 'finish':
        finish = part;
        break;
      default:
        break; // *-end, tool-input-*, raw, error: no content of their own
    }
  }
  return {
    content: content.map(serializeContent),
    finishReason: finish?.finishReason ?? { unified: 'other', raw: undefined },
    usage: finish?.usage ?? fillUsage(undefined),
    warnings,
    providerMetadata: finish?.providerMetadata,
    metadata,
    chunks: parts.map(serializeChunk).filter((c) => c !== undefined),
  };
}

export function toGenerateResult(response: RecordedResponse): GenerateResult {
  const m = response.metadata;
  return {
    content: response.content as Content[],
    finishReason: response.finishReason,
    usage: fillUsage(response.usage),
    warnings: response.warnings as GenerateResult['warnings'],
    providerMetadata: response.providerMetadata as GenerateResult['providerMetadata'],
    response: m ? { id: m.id, modelId: m.modelId, timestamp: m.timestamp ? new Date(m.timestamp) : undefined } : undefined,
  };
}

/** The recorded chunks, or (for a generate recording) the stream a provider would have sent. */
function toStreamParts(response: RecordedResponse): StreamPart[] {
  if (response.chunks) return response.chunks.map(reviveChunk);
  const r = toGenerateResult(response);
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: r.warnings }];
  if (r.response) parts.push({ type: 'response-metadata', ...r.response });
  r.content.forEach((part, i) => {
    const id = String(i);
    if (part.type === 'text' || part.type === 'reasoning') {
      const pm = part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
      parts.push(
        { type: `${part.type}-start`, id, ...pm } as StreamPart,
        { type: `${part.type}-delta`, id, delta: part.text } as StreamPart,
        { type: `${part.type}-end`, id } as StreamPart,
      );
    } else parts.push(part as StreamPart);
  });
  parts.push({ type: 'finish', usage: r.usage, finishReason: r.finishReason, providerMetadata: r.providerMetadata });
  return parts;
}

export function toStreamResult(response: RecordedResponse): StreamResult {
  const parts = toStreamParts(response);
  let i = 0;
  return {
    stream: new ReadableStream<StreamPart>({
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++]);
        else controller.close();
      },
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Files

export class CassetteRecorder {
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }

  /** One appendFileSync per call: lines from concurrent calls never interleave. */
  append(entry: CassetteEntry): void {
    fs.appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
}

export function readCassette(file: string): CassetteEntry[] {
  const text = fs.readFileSync(file, 'utf8');
  const entries: CassetteEntry[] = [];
  for (const line of jsonLines(text, file, ' (is this an MC_LLM_RECORD file?)')) {
    const entry = line.value as CassetteEntry;
    if (typeof entry?.key !== 'string' || !entry.response) throw new Error(`${line.where}: missing key or response`);
    entries.push(entry);
  }
  return entries;
}

/**
 * Serves recorded responses by key. Repeated identical requests get the recordings in their
 * original order, then the last one again. The file is re-read when it changes on disk, so a
 * recording made earlier in the same process (or by a parallel run) is picked up.
 */
export class ReplayStore {
  private byKey = new Map<string, CassetteEntry[]>();
  private all: CassetteEntry[] = [];
  private served = new Map<string, number>();
  private stamp = '';

  constructor(readonly file: string) {
    if (!fs.existsSync(file)) throw new Error(`MC_LLM_REPLAY file not found: ${path.resolve(file)} (record one with MC_LLM_RECORD=${file})`);
    this.reload();
  }

  private reload(): void {
    const st = fs.statSync(this.file);
    const stamp = `${st.size}:${st.mtimeMs}`;
    if (stamp === this.stamp) return;
    this.all = readCassette(this.file);
    this.byKey = new Map();
    for (const e of this.all) {
      const list = this.byKey.get(e.key) ?? [];
      list.push(e);
      this.byKey.set(e.key, list);
    }
    this.stamp = stamp;
  }

  take(key: string): CassetteEntry | undefined {
    this.reload();
    const list = this.byKey.get(key);
    if (!list) return undefined;
    const n = this.served.get(key) ?? 0;
    this.served.set(key, n + 1);
    return list[Math.min(n, list.length - 1)];
  }

  countForModel(modelId: string): { total: number; forModel: number } {
    return { total: this.all.length, forModel: this.all.filter((e) => e.modelId === modelId).length };
  }
}

/** The last user text of a request, shortened: enough to find the call in the app's code. */
export function describePrompt(prompt: CallOptions['prompt']): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (m.role !== 'user') continue;
    const text = m.content
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  }
  return '(no user text)';
}
