/**
 * Cross-encoder reranker through transformers.js (ONNX Runtime on Node), e.g.
 * Xenova/ms-marco-MiniLM-L-6-v2: the query and a passage are read together by the model, which
 * returns one relevance logit per pair — slower than comparing vectors, so it runs over the top
 * candidates of a first-stage search only.
 *
 * The model is found the way the embedder finds its own (embeddings/transformers.ts): a folder
 * path, RERANKER_MODEL_DIR (the model itself or <model id>/…), DATA_DIR/models/<model id>, else
 * the Hugging Face Hub fetched once into DATA_DIR/models where the network allows.
 */
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { type Dtype, type ModelLocation, ModelUnavailableError, openTransformers, pickDtype, serialisedLoad } from '../embeddings/transformers';
import { chunk, errorMessage, throwIfAborted } from '../embeddings/util';
import type { CallOptions, Reranker } from '../types';

export { ModelUnavailableError };

/**
 * Pairs per forward pass. Small on purpose: a cross-encoder pass costs seq² attention per pair,
 * every pair in a batch is padded to the longest one, and the abort signal is checked between
 * batches — so 8 keeps padding waste and the delay before an abort takes effect low while still
 * amortising the per-call overhead of ONNX Runtime.
 */
export const RERANK_BATCH_SIZE = 8;

/** Model Xenova/ms-marco-MiniLM-L-6-v2 (say), found as ModelLocation describes (modelDir: RERANKER_MODEL_DIR). */
export interface TransformersRerankerOptions extends ModelLocation {
  dtype?: Dtype;
  /** Token limit per (query, passage) pair, capped by the tokenizer's model_max_length. */
  maxLength?: number;
  log?: (message: string) => void;
}

export function loadTransformersReranker(opts: TransformersRerankerOptions): Promise<TransformersReranker> {
  return serialisedLoad(() => load(opts));
}

async function load(opts: TransformersRerankerOptions): Promise<TransformersReranker> {
  const log = opts.log ?? ((m: string) => console.info(`[reranker] ${m}`));
  const started = Date.now();
  const { hf, localDir } = await openTransformers(opts);

  const source = localDir ?? opts.model;
  // Downloads take the small q8 file every Xenova repo ships; local folders use what they hold.
  const dtype = opts.dtype ?? (localDir ? pickDtype(localDir) : 'q8');
  const common = { cache_dir: opts.cacheDir, local_files_only: !!localDir };
  if (!localDir) log(`fetching ${opts.model} into ${opts.cacheDir}`);
  let tokenizer: PreTrainedTokenizer;
  let model: PreTrainedModel;
  try {
    tokenizer = await hf.AutoTokenizer.from_pretrained(source, common);
    model = await hf.AutoModelForSequenceClassification.from_pretrained(source, { ...common, dtype, device: 'cpu' });
  } catch (err) {
    if (err instanceof hf.ModelFileNotFoundError || /not found|ENOENT|fetch failed|ENOTFOUND|Unsupported model type/i.test(errorMessage(err))) {
      throw new ModelUnavailableError(`model ${opts.model} could not be loaded as a cross-encoder: ${errorMessage(err)}`);
    }
    throw err;
  }

  const reranker = new TransformersReranker({
    hf,
    tokenizer,
    model,
    id: `transformers:${opts.model}:${dtype}`,
    maxLength: Math.min(opts.maxLength ?? 512, Number(tokenizer.model_max_length) || 512),
  });
  // One pass proves the session runs and that the head is a relevance head (1 or 2 logits).
  await reranker.score('warm up', ['warm up']);
  log(`loaded ${opts.model} (${dtype}) from ${localDir ?? path.resolve(opts.cacheDir, opts.model)} in ${Date.now() - started} ms`);
  return reranker;
}

interface RerankerParts {
  hf: typeof import('@huggingface/transformers');
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  id: string;
  maxLength: number;
}

type PairEncoding = { input_ids: number[]; attention_mask: number[]; token_type_ids?: number[] };

export class TransformersReranker implements Reranker {
  readonly id: string;
  /** Forward passes run so far (benchmarks; tests check that an abort stops further passes). */
  forwardPasses = 0;
  private readonly special: Set<number>;

  constructor(private readonly p: RerankerParts) {
    this.id = p.id;
    this.special = new Set(p.tokenizer.all_special_ids);
  }

  async score(query: string, passages: string[], opts?: CallOptions): Promise<number[]> {
    throwIfAborted(opts);
    const scores = new Array<number>(passages.length);
    // Similar lengths share a batch, so little of each pass is spent on padding.
    const order = passages.map((_, i) => i).sort((a, b) => passages[a].length - passages[b].length);
    for (const batch of chunk(order, RERANK_BATCH_SIZE)) {
      throwIfAborted(opts);
      const logits = await this.scoreBatch(
        query,
        batch.map((i) => passages[i]),
      );
      batch.forEach((i, k) => (scores[i] = logits[k]));
    }
    throwIfAborted(opts);
    return scores;
  }

  private async scoreBatch(query: string, passages: string[]): Promise<number[]> {
    const encoded = this.p.tokenizer(
      passages.map(() => query),
      { text_pair: passages, padding: false, truncation: false, return_tensor: false },
    ) as unknown as Record<keyof PairEncoding, number[][]>;
    const pairs = passages.map((_, i) =>
      this.truncate({
        input_ids: encoded.input_ids[i],
        attention_mask: encoded.attention_mask[i],
        token_type_ids: encoded.token_type_ids?.[i],
      }),
    );
    this.forwardPasses++;
    const output = (await this.p.model(this.toTensors(pairs))) as { logits?: Tensor };
    const logits = output.logits;
    if (!logits || logits.dims.length !== 2) throw new Error(`${this.id} returned no logits: not a sequence-classification model`);
    const [b, labels] = logits.dims;
    const data = logits.data as Float32Array;
    // One logit (MS MARCO cross-encoders): the raw logit. Two (not relevant / relevant): their
    // difference, the log-odds of "relevant" — monotone in the softmax probability, but not squashed.
    if (labels === 1) return Array.from({ length: b }, (_, i) => data[i]);
    if (labels === 2) return Array.from({ length: b }, (_, i) => data[i * 2 + 1] - data[i * 2]);
    throw new Error(`${this.id} has ${labels} output labels; a reranker needs 1 (relevance) or 2 (not relevant / relevant)`);
  }

  /**
   * Cuts a pair to the model's length by dropping the end of the passage while keeping the
   * template's closing special tokens ([SEP], or </s> for XLM-R): transformers.js would cut
   * them off, and the model never saw a pair without them in training.
   */
  private truncate(pair: PairEncoding): PairEncoding {
    const max = this.p.maxLength;
    const n = pair.input_ids.length;
    if (n <= max) return pair;
    let tail = 0;
    while (tail < n && tail < max - 1 && this.special.has(pair.input_ids[n - 1 - tail])) tail++;
    const cut = (xs: number[]) => [...xs.slice(0, max - tail), ...xs.slice(n - tail)];
    return {
      input_ids: cut(pair.input_ids),
      attention_mask: cut(pair.attention_mask),
      token_type_ids: pair.token_type_ids && cut(pair.token_type_ids),
    };
  }

  /** Right-pads the batch to its longest pair and builds int64 tensors. */
  private toTensors(pairs: PairEncoding[]): Record<string, Tensor> {
    const width = Math.max(...pairs.map((x) => x.input_ids.length));
    const pad = this.p.tokenizer.pad_token_id ?? 0;
    const tensor = (key: keyof PairEncoding, fill: number) => {
      const data = new BigInt64Array(pairs.length * width).fill(BigInt(fill));
      pairs.forEach((x, i) => x[key]!.forEach((v, t) => (data[i * width + t] = BigInt(v))));
      return new this.p.hf.Tensor('int64', data, [pairs.length, width]);
    };
    const inputs: Record<string, Tensor> = { input_ids: tensor('input_ids', pad), attention_mask: tensor('attention_mask', 0) };
    if (pairs.every((x) => x.token_type_ids)) inputs.token_type_ids = tensor('token_type_ids', 0);
    return inputs;
  }
}
