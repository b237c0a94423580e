/**
 * transformers.js (ONNX Runtime on Node) sentence embedder, e.g. Xenova/bge-small-en-v1.5.
 *
 * Where the model comes from, first match wins:
 *   1. EMBEDDING_MODEL is itself a folder path;
 *   2. EMBEDDING_MODEL_DIR holds the model (config.json at its top) or holds <model id>/…;
 *   3. DATA_DIR/models/<model id>/… (a previous download, or files copied there by hand);
 *   4. the Hugging Face Hub, fetched once into DATA_DIR/models — only when remote loading is
 *      allowed and a short reachability probe succeeds, so an offline machine fails in
 *      milliseconds instead of hanging (the factory then falls back to the offline embedder).
 *
 * It also exposes the model's token outputs (minus special and punctuation tokens) for the
 * local multi-vector embedder: ColBERT-style late interaction on the same model.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, ProgressInfo, Tensor } from '@huggingface/transformers';
import { runtimeEnv } from '../../config';
import type { CallOptions, Embedder } from '../types';
import { defaultPooling, instructionPrefixes, type InstructionPrefixes } from './prefixes';
import type { TokenOptions, TokenVectors, TokenVectorSource } from './token-vectors';
import { chunk, errorMessage, l2normalize, throwIfAborted } from './util';

export type Pooling = 'cls' | 'mean';
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';

/** Model Xenova/bge-small-en-v1.5 (say), found as ModelLocation describes (modelDir: EMBEDDING_MODEL_DIR). */
export interface TransformersEmbedderOptions extends ModelLocation {
  pooling?: Pooling;
  dtype?: Dtype;
  /** Token limit per sequence (capped by the tokenizer's model_max_length). */
  maxLength?: number;
  /** Texts per forward pass. */
  batchSize?: number;
  log?: (message: string) => void;
}

/** No usable model: not on disk, and the hub is disabled or unreachable. */
export class ModelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelUnavailableError';
  }
}

const DEFAULT_REMOTE_HOST = 'https://huggingface.co/';
// Suffixes transformers.js appends per dtype (utils/dtypes.js), in order of preference on CPU.
const DTYPE_FILES: Array<[Dtype, string]> = [
  ['fp32', 'model.onnx'],
  ['q8', 'model_quantized.onnx'],
  ['int8', 'model_int8.onnx'],
  ['uint8', 'model_uint8.onnx'],
  ['fp16', 'model_fp16.onnx'],
  ['q4', 'model_q4.onnx'],
  ['q4f16', 'model_q4f16.onnx'],
  ['bnb4', 'model_bnb4.onnx'],
];

/** True when the standard offline switches are set. */
export function remoteDisabledByEnv(env: Record<string, string | undefined> = process.env): boolean {
  const on = (v?: string) => !!v && !/^(0|false|no|off)$/i.test(v.trim());
  // Under vitest nothing may reach the network unless a test opts in by passing allowRemote.
  return on(runtimeEnv('HF_HUB_OFFLINE', env)) || on(runtimeEnv('TRANSFORMERS_OFFLINE', env)) || !!env.VITEST;
}

function isModelFolder(dir: string): boolean {
  return (
    fs.existsSync(path.join(dir, 'config.json')) &&
    fs.existsSync(path.join(dir, 'tokenizer.json')) &&
    DTYPE_FILES.some(([, f]) => fs.existsSync(path.join(dir, 'onnx', f)))
  );
}

function looksLikePath(p: string): boolean {
  return path.isAbsolute(p) || p.startsWith('./') || p.startsWith('../') || p.startsWith('~');
}

/** Where the model will be loaded from, without touching the network. */
export function resolveLocalModel(opts: Pick<TransformersEmbedderOptions, 'model' | 'modelDir' | 'cacheDir'>): string | undefined {
  const candidates: string[] = [];
  if (looksLikePath(opts.model)) candidates.push(path.resolve(opts.model.replace(/^~(?=$|\/)/, process.env.HOME ?? '~')));
  if (opts.modelDir) {
    candidates.push(path.resolve(opts.modelDir));
    if (!looksLikePath(opts.model)) candidates.push(path.resolve(opts.modelDir, opts.model));
  }
  if (!looksLikePath(opts.model)) candidates.push(path.resolve(opts.cacheDir, opts.model));
  return candidates.find(isModelFolder);
}

export function pickDtype(dir: string): Dtype {
  return DTYPE_FILES.find(([, f]) => fs.existsSync(path.join(dir, 'onnx', f)))?.[0] ?? 'fp32';
}

function poolingFromFolder(dir: string): Pooling | undefined {
  const file = path.join(dir, '1_Pooling', 'config.json');
  if (!fs.existsSync(file)) return undefined;
  try {
    const cfg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (cfg.pooling_mode_cls_token) return 'cls';
    if (cfg.pooling_mode_mean_tokens) return 'mean';
  } catch {
    // A malformed pooling file is ignored: the model-name default applies.
  }
  return undefined;
}

/** HEAD config.json on the hub with a short timeout: reachable and the model exists. */
async function probeHub(remoteHost: string, model: string, timeoutMs: number, fetchFn: typeof fetch): Promise<void> {
  const url = `${remoteHost.replace(/\/?$/, '/')}${model}/resolve/main/config.json`;
  let res: Response;
  try {
    res = await fetchFn(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (err) {
    throw new ModelUnavailableError(`model ${model} not found locally and the hub is unreachable (${errorMessage(err)})`);
  }
  if (!res.ok) throw new ModelUnavailableError(`model ${model} not found locally and the hub answered ${res.status} for ${url}`);
}

// transformers.js configuration is process-global: loads (embedder and reranker) are serialised so settings never mix.
let loadQueue: Promise<unknown> = Promise.resolve();

export function serialisedLoad<T>(fn: () => Promise<T>): Promise<T> {
  const run = loadQueue.then(fn);
  loadQueue = run.catch(() => undefined);
  return run;
}

/** Where and how a transformers.js model is looked for (the embedder's and the reranker's options share these). */
export interface ModelLocation {
  /** Hub id (Xenova/bge-small-en-v1.5) or a folder path. */
  model: string;
  /** A folder holding the model, or holding <model id>/ (EMBEDDING_MODEL_DIR, RERANKER_MODEL_DIR). */
  modelDir?: string;
  /** Download cache and second search location: DATA_DIR/models. */
  cacheDir: string;
  /** Fetch from the hub when no local copy exists (default: allowed unless offline env vars say otherwise). */
  allowRemote?: boolean;
  /** Hub base URL (tests point it at a local server). Default https://huggingface.co/. */
  remoteHost?: string;
  /** Timeout of the hub reachability probe before any download. */
  probeTimeoutMs?: number;
  /** fetch used by the reachability probe (tests). */
  fetch?: typeof fetch;
}

/**
 * Finds the model (a local folder, else the hub when allowed and reachable) and points
 * transformers.js's process-wide settings at it. Throws ModelUnavailableError when there is none.
 */
export async function openTransformers(opts: ModelLocation) {
  const allowRemote = opts.allowRemote ?? !remoteDisabledByEnv();
  const remoteHost = opts.remoteHost ?? DEFAULT_REMOTE_HOST;
  const localDir = resolveLocalModel(opts);
  if (!localDir) {
    if (looksLikePath(opts.model)) throw new ModelUnavailableError(`model folder ${opts.model} is missing config.json, tokenizer.json or onnx/model*.onnx`);
    if (!allowRemote) {
      throw new ModelUnavailableError(
        `model ${opts.model} not found offline (looked in ${[opts.modelDir, opts.cacheDir].filter(Boolean).join(', ')}) and remote downloads are disabled`,
      );
    }
    await probeHub(remoteHost, opts.model, opts.probeTimeoutMs ?? 3000, opts.fetch ?? fetch);
  }
  const hf = await import('@huggingface/transformers');
  hf.env.allowLocalModels = true;
  hf.env.allowRemoteModels = allowRemote && !localDir;
  hf.env.remoteHost = remoteHost;
  hf.env.localModelPath = opts.cacheDir;
  hf.env.cacheDir = opts.cacheDir;
  hf.env.useFSCache = true;
  hf.env.useBrowserCache = false;
  hf.env.logLevel = hf.LogLevel.ERROR;
  return { hf, localDir };
}

export async function loadTransformersEmbedder(opts: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  return serialisedLoad(() => load(opts));
}

async function load(opts: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const log = opts.log ?? ((m: string) => console.info(`[embeddings] ${m}`));
  const started = Date.now();
  const opened = await openTransformers(opts);
  const hf = opened.hf;
  // Set again after a download: the fetched copy is then the local folder.
  let localDir = opened.localDir;

  const lastLogged = new Map<string, number>();
  const progress_callback = (p: ProgressInfo) => {
    if (p.status === 'initiate' && !localDir) log(`fetching ${p.name}/${p.file}`);
    if (p.status === 'progress' && p.total > 1_000_000) {
      const step = Math.floor(p.progress / 10) * 10;
      if (step > (lastLogged.get(p.file) ?? -1)) {
        lastLogged.set(p.file, step);
        log(`  ${p.file}: ${step}% of ${(p.total / 1e6).toFixed(1)} MB`);
      }
    }
  };

  const source = localDir ?? opts.model;
  // For downloads q8 is the small file every Xenova/onnx-community repo ships; local folders use what they hold.
  const dtype = opts.dtype ?? (localDir ? pickDtype(localDir) : 'q8');
  const common = { cache_dir: opts.cacheDir, local_files_only: !!localDir, progress_callback };
  let tokenizer: PreTrainedTokenizer;
  let model: PreTrainedModel;
  try {
    tokenizer = await hf.AutoTokenizer.from_pretrained(source, common);
    model = await hf.AutoModel.from_pretrained(source, { ...common, dtype, device: 'cpu' });
  } catch (err) {
    if (err instanceof hf.ModelFileNotFoundError || /not found|ENOENT|fetch failed|ENOTFOUND/i.test(errorMessage(err))) {
      throw new ModelUnavailableError(`model ${opts.model} could not be loaded: ${errorMessage(err)}`);
    }
    throw err;
  }
  if (!localDir) {
    // Downloaded into cacheDir/<id>: from now on it is a local folder.
    localDir = resolveLocalModel(opts) ?? path.resolve(opts.cacheDir, opts.model);
    log(`cached ${opts.model} in ${localDir}`);
  }

  const pooling = opts.pooling ?? poolingFromFolder(localDir) ?? defaultPooling(opts.model);
  const embedder = new TransformersEmbedder({
    hf,
    tokenizer,
    model,
    modelName: opts.model,
    dtype,
    pooling,
    prefixes: instructionPrefixes(opts.model),
    maxLength: Math.min(opts.maxLength ?? 512, Number(tokenizer.model_max_length) || 512),
    batchSize: opts.batchSize ?? 16,
  });
  await embedder.warmUp();
  embedder.loadMs = Date.now() - started;
  log(`loaded ${opts.model} (${dtype}, ${pooling} pooling, ${embedder.dimensions} dims) from ${localDir} in ${embedder.loadMs} ms`);
  return embedder;
}

interface EmbedderParts {
  hf: typeof import('@huggingface/transformers');
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  modelName: string;
  dtype: Dtype;
  pooling: Pooling;
  prefixes: InstructionPrefixes;
  maxLength: number;
  batchSize: number;
}

export class TransformersEmbedder implements Embedder, TokenVectorSource {
  readonly provider = 'transformers' as const;
  readonly id: string;
  readonly tokenVectorsId: string;
  dimensions = 0;
  tokenDimensions = 0;
  readonly pooling: Pooling;
  /** Cold load time (files + session + first forward pass). */
  loadMs = 0;
  private readonly special: Set<number>;
  private idToToken?: string[];

  /** The size is learned by warmUp, so the fingerprint is read after it. */
  get fingerprint(): string {
    return `${this.id}:${this.dimensions}`;
  }

  constructor(private readonly p: EmbedderParts) {
    this.pooling = p.pooling;
    this.id = `transformers:${p.modelName}:${p.dtype}:${p.pooling}`;
    this.tokenVectorsId = `transformers:${p.modelName}:${p.dtype}:tokens`;
    this.special = new Set(p.tokenizer.all_special_ids);
  }

  /** One forward pass: learns the hidden size and proves the session runs. */
  async warmUp(): Promise<void> {
    const [v] = await this.embedBatch(['warm up']);
    this.dimensions = v.length;
    this.tokenDimensions = v.length;
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of chunk(texts, this.p.batchSize)) {
      throwIfAborted(opts);
      out.push(...(await this.embedBatch(batch.map((t) => this.p.prefixes.document + t))));
    }
    return out;
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    throwIfAborted(opts);
    return (await this.embedBatch([this.p.prefixes.query + text]))[0];
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const inputs = this.p.tokenizer(texts, { padding: true, truncation: true, max_length: this.p.maxLength });
    const output = (await this.p.model(inputs)) as Record<string, Tensor>;
    const direct = output.sentence_embedding;
    if (direct && direct.dims.length === 2) {
      const [b, d] = direct.dims;
      const data = direct.data as Float32Array;
      return Array.from({ length: b }, (_, i) => l2normalize(data.slice(i * d, (i + 1) * d)));
    }
    const hidden = hiddenStates(output);
    const [b, s, d] = hidden.dims;
    const data = hidden.data as Float32Array;
    const mask = (inputs.attention_mask as Tensor).data as BigInt64Array;
    const out: Float32Array[] = [];
    for (let i = 0; i < b; i++) {
      const v = new Float32Array(d);
      if (this.p.pooling === 'cls') {
        v.set(data.subarray(i * s * d, i * s * d + d));
      } else {
        let n = 0;
        for (let t = 0; t < s; t++) {
          if (mask[i * s + t] === 0n) continue;
          n++;
          const off = (i * s + t) * d;
          for (let k = 0; k < d; k++) v[k] += data[off + k];
        }
        if (n > 0) for (let k = 0; k < d; k++) v[k] /= n;
      }
      out.push(l2normalize(v));
    }
    return out;
  }

  /**
   * Contextual token vectors of whole texts. Long texts run as consecutive windows of the
   * model's maximum length, so a page of any size keeps all its tokens.
   */
  async embedTokens(texts: string[], opts: TokenOptions): Promise<TokenVectors[]> {
    const out: TokenVectors[] = [];
    for (const text of texts) {
      throwIfAborted(opts);
      const ids = this.p.tokenizer.encode(text) as number[];
      const windows = splitWindows(ids, this.p.maxLength);
      const tokens: string[] = [];
      const vectors: Float32Array[] = [];
      for (const group of chunk(windows, this.p.batchSize)) {
        const width = Math.max(...group.map((w) => w.length));
        const idData = new BigInt64Array(group.length * width);
        const maskData = new BigInt64Array(group.length * width);
        group.forEach((w, i) => {
          w.forEach((id, t) => {
            idData[i * width + t] = BigInt(id);
            maskData[i * width + t] = 1n;
          });
          for (let t = w.length; t < width; t++) idData[i * width + t] = BigInt(this.p.tokenizer.pad_token_id ?? 0);
        });
        const input_ids = new this.p.hf.Tensor('int64', idData, [group.length, width]);
        const attention_mask = new this.p.hf.Tensor('int64', maskData, [group.length, width]);
        const hidden = hiddenStates((await this.p.model({ input_ids, attention_mask })) as Record<string, Tensor>);
        const d = hidden.dims[2];
        const data = hidden.data as Float32Array;
        group.forEach((w, i) => {
          w.forEach((id, t) => {
            const token = this.tokenText(id);
            if (this.special.has(id) || !/[\p{L}\p{N}]/u.test(token)) return;
            const off = (i * width + t) * d;
            tokens.push(token);
            vectors.push(l2normalize(data.slice(off, off + d)));
          });
        });
      }
      out.push({ tokens, vectors });
    }
    return out;
  }

  private tokenText(id: number): string {
    if (!this.idToToken) {
      const vocab = this.p.tokenizer.get_vocab();
      const arr: string[] = [];
      for (const [tok, i] of vocab) arr[i] = tok;
      this.idToToken = arr;
    }
    return this.idToToken[id] ?? '';
  }
}

function hiddenStates(output: Record<string, Tensor>): Tensor {
  const t = output.last_hidden_state ?? output.token_embeddings ?? Object.values(output).find((x) => x.dims.length === 3);
  if (!t) throw new Error(`model returned no token states (outputs: ${Object.keys(output).join(', ')})`);
  return t;
}

/** [first, ...middle, last] windows no longer than maxLength that keep the special tokens at both ends. */
export function splitWindows(ids: number[], maxLength: number): number[][] {
  if (ids.length <= maxLength) return [ids];
  const first = ids[0];
  const last = ids[ids.length - 1];
  const inner = ids.slice(1, -1);
  const size = Math.max(1, maxLength - 2);
  const out: number[][] = [];
  for (let i = 0; i < inner.length; i += size) out.push([first, ...inner.slice(i, i + size), last]);
  return out;
}
