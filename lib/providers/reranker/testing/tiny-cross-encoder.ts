/**
 * Writes a tiny but real BERT-shaped cross-encoder folder (BertForSequenceClassification: ONNX
 * graph with a `logits` output + the tiny BERT tokenizer) so the reranker runs end to end through
 * transformers.js on machines that cannot download weights.
 *
 * The graph is a lexical-overlap "cross-encoder" whose every score a test can compute by hand:
 * each token is one-hot, the query half (token type 0) and the passage half (token type 1) are
 * summed separately over attended positions, and
 *   logits = (queryCounts ⊙ passageCounts) · W + bias
 * With W[:, last] = TOKEN_WEIGHT (1 per word, SEP_WEIGHT for [SEP], 0 for other specials) the
 * last logit is Σ_words count_query(w)·count_passage(w) + SEP_WEIGHT (when the pair's final
 * [SEP] survives truncation) + bias. Padding is masked out, so batching must not change scores.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  addBertInputs,
  f32Bytes,
  FLOAT,
  i64Bytes,
  INT64,
  node,
  onnxModel,
  pb,
  tensorProto,
  TINY_SPECIAL_TOKENS,
  valueInfo,
  writeTinyBertModel,
} from '../../embeddings/testing/tiny-bert';

/** Weight of a query [SEP] meeting a passage [SEP]: shows whether the pair's final [SEP] was kept. */
export const SEP_WEIGHT = 0.5;
/** Two-label variant: class 0 gets this bias, so "logit 1 − logit 0" = single-label score − it. */
export const TWO_LABEL_CLASS0_BIAS = 1.5;

export interface TinyCrossEncoder {
  dir: string;
  vocab: string[];
  files: string[];
}

export interface TinyCrossEncoderOptions {
  /** 1 (MS MARCO style, one relevance logit) or 2 (not relevant / relevant). */
  labels?: 1 | 2;
  onnxFile?: string;
}

function encodeCrossEncoderOnnx(vocabSize: number, labels: 1 | 2, tokenWeight: Float32Array): Uint8Array {
  const identity = new Float32Array(vocabSize * vocabSize);
  for (let i = 0; i < vocabSize; i++) identity[i * vocabSize + i] = 1;
  // Row-major [vocab, labels]: the last column carries the relevance weights, class 0 (if any) none.
  const w = new Float32Array(vocabSize * labels);
  for (let i = 0; i < vocabSize; i++) w[i * labels + labels - 1] = tokenWeight[i];
  const bias = labels === 2 ? Float32Array.from([TWO_LABEL_CLASS0_BIAS, 0]) : Float32Array.from([0]);

  const graph = pb();
  graph.message(1, node('Gather', ['one_hot', 'input_ids'], ['tokens'], [['axis', 0]]));
  graph.message(1, node('Cast', ['attention_mask'], ['mask_f'], [['to', FLOAT]]));
  graph.message(1, node('Cast', ['token_type_ids'], ['type_f'], [['to', FLOAT]]));
  graph.message(1, node('Mul', ['mask_f', 'type_f'], ['passage_mask']));
  graph.message(1, node('Sub', ['mask_f', 'passage_mask'], ['query_mask']));
  graph.message(1, node('Unsqueeze', ['passage_mask', 'last_axis'], ['passage_mask_3d']));
  graph.message(1, node('Unsqueeze', ['query_mask', 'last_axis'], ['query_mask_3d']));
  graph.message(1, node('Mul', ['tokens', 'passage_mask_3d'], ['passage_tokens']));
  graph.message(1, node('Mul', ['tokens', 'query_mask_3d'], ['query_tokens']));
  graph.message(1, node('ReduceSum', ['passage_tokens', 'seq_axis'], ['passage_counts'], [['keepdims', 0]]));
  graph.message(1, node('ReduceSum', ['query_tokens', 'seq_axis'], ['query_counts'], [['keepdims', 0]]));
  graph.message(1, node('Mul', ['query_counts', 'passage_counts'], ['overlap']));
  graph.message(1, node('MatMul', ['overlap', 'classifier_weight'], ['projected']));
  graph.message(1, node('Add', ['projected', 'classifier_bias'], ['logits']));
  graph.string(2, 'tiny_cross_encoder');
  graph.message(5, tensorProto('one_hot', [vocabSize, vocabSize], FLOAT, f32Bytes(identity)));
  graph.message(5, tensorProto('classifier_weight', [vocabSize, labels], FLOAT, f32Bytes(w)));
  graph.message(5, tensorProto('classifier_bias', [labels], FLOAT, f32Bytes(bias)));
  graph.message(5, tensorProto('last_axis', [1], INT64, i64Bytes([-1])));
  graph.message(5, tensorProto('seq_axis', [1], INT64, i64Bytes([1])));
  addBertInputs(graph);
  graph.message(12, valueInfo('logits', FLOAT, ['batch_size', labels]));
  return onnxModel(graph);
}

/** Writes the tiny cross-encoder into `dir` (created if needed). */
export function writeTinyCrossEncoder(dir: string, opts: TinyCrossEncoderOptions = {}): TinyCrossEncoder {
  const labels = opts.labels ?? 1;
  const onnxFile = opts.onnxFile ?? 'model.onnx';
  // The tiny BERT brings the tokenizer files; its embedding graph and config are replaced.
  const bert = writeTinyBertModel(dir, { onnxFile });
  const specials = new Set<string>(TINY_SPECIAL_TOKENS);
  const tokenWeight = Float32Array.from(bert.vocab, (t) => (t === '[SEP]' ? SEP_WEIGHT : specials.has(t) ? 0 : 1));
  const id2label = labels === 1 ? { 0: 'LABEL_0' } : { 0: 'not_relevant', 1: 'relevant' };
  const config = {
    architectures: ['BertForSequenceClassification'],
    model_type: 'bert',
    hidden_size: bert.vocab.length,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    intermediate_size: bert.vocab.length,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: bert.vocab.length,
    pad_token_id: 0,
    id2label,
    label2id: Object.fromEntries(Object.entries(id2label).map(([k, v]) => [v, Number(k)])),
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config, null, 2));
  fs.writeFileSync(path.join(dir, 'onnx', onnxFile), encodeCrossEncoderOnnx(bert.vocab.length, labels, tokenWeight));
  return { dir, vocab: bert.vocab, files: bert.files };
}
