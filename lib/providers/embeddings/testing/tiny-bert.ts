/**
 * Writes a tiny but real BERT-shaped model folder (ONNX graph + tokenizer.json + configs) so the
 * transformers.js path can be tested end to end on machines that cannot download weights.
 *
 * The graph is `last_hidden_state = word_emb[input_ids] + type_emb[token_type_ids] + attention_mask * mask_bias`,
 * so a test can compute every expected vector by hand from the returned tables. Like a real
 * encoder, padded positions get non-zero states, so pooling that forgets the mask is caught.
 * The ONNX protobuf is encoded directly (no onnx/protobufjs dependency): only the handful of
 * fields onnxruntime needs are written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prng } from '@/lib/sample/prng';

// --- minimal protobuf writer -------------------------------------------------------------------

class ProtoWriter {
  private parts: number[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v > 0x7fn) {
      this.parts.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    this.parts.push(Number(v));
  }

  private key(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  int(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.varint(value);
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.key(field, 2);
    this.varint(data.length);
    for (const b of data) this.parts.push(b);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, inner: ProtoWriter): this {
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export const pb = () => new ProtoWriter();

// ONNX enums (onnx.proto): TensorProto.DataType and AttributeProto.AttributeType.
export const FLOAT = 1;
export const INT64 = 7;
const ATTR_INT = 2;

export function tensorProto(name: string, dims: number[], dataType: number, raw: Uint8Array): ProtoWriter {
  const t = pb();
  for (const d of dims) t.int(1, d); // dims
  t.int(2, dataType); // data_type
  t.string(8, name); // name
  t.bytes(9, raw); // raw_data (little-endian)
  return t;
}

export function valueInfo(name: string, elemType: number, shape: Array<number | string>): ProtoWriter {
  const tensorShape = pb();
  for (const d of shape) tensorShape.message(1, typeof d === 'number' ? pb().int(1, d) : pb().string(2, d));
  const tensorType = pb().int(1, elemType).message(2, tensorShape);
  return pb().string(1, name).message(2, pb().message(1, tensorType));
}

export function node(opType: string, inputs: string[], outputs: string[], attrs: Array<[string, number]> = []): ProtoWriter {
  const n = pb();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, `${opType}_${outputs[0]}`);
  n.string(4, opType);
  for (const [name, value] of attrs) n.message(5, pb().string(1, name).int(3, value).int(20, ATTR_INT));
  return n;
}

export function f32Bytes(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
}

export function i64Bytes(values: number[]): Uint8Array {
  return new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer);
}

/** Encodes the ONNX model: Gather word + type embeddings, add, add the mask-gated bias. */
function encodeTinyBertOnnx(wordEmb: Float32Array, typeEmb: Float32Array, maskBias: Float32Array, vocabSize: number, dim: number): Uint8Array {
  const graph = pb();
  graph.message(1, node('Gather', ['word_embeddings', 'input_ids'], ['words'], [['axis', 0]]));
  graph.message(1, node('Gather', ['type_embeddings', 'token_type_ids'], ['types'], [['axis', 0]]));
  graph.message(1, node('Add', ['words', 'types'], ['summed']));
  graph.message(1, node('Cast', ['attention_mask'], ['mask_f'], [['to', FLOAT]]));
  graph.message(1, node('Unsqueeze', ['mask_f', 'unsqueeze_axes'], ['mask_3d']));
  graph.message(1, node('Mul', ['mask_3d', 'mask_bias'], ['bias_3d']));
  graph.message(1, node('Add', ['summed', 'bias_3d'], ['last_hidden_state']));
  graph.string(2, 'tiny_bert');
  graph.message(5, tensorProto('word_embeddings', [vocabSize, dim], FLOAT, f32Bytes(wordEmb)));
  graph.message(5, tensorProto('type_embeddings', [2, dim], FLOAT, f32Bytes(typeEmb)));
  graph.message(5, tensorProto('mask_bias', [dim], FLOAT, f32Bytes(maskBias)));
  graph.message(5, tensorProto('unsqueeze_axes', [1], INT64, i64Bytes([-1])));
  addBertInputs(graph);
  graph.message(12, valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dim]));
  return onnxModel(graph);
}

/** Declares the graph inputs a BERT tokenizer feeds: input_ids, attention_mask, token_type_ids, each [batch, sequence]. */
export function addBertInputs(graph: ProtoWriter): void {
  for (const name of ['input_ids', 'attention_mask', 'token_type_ids']) graph.message(11, valueInfo(name, INT64, ['batch_size', 'sequence_length']));
}

/** The ONNX file of `graph`: a ModelProto of IR version 8 importing the default domain at opset 13. */
export function onnxModel(graph: ProtoWriter): Uint8Array {
  return pb()
    .int(1, 8) // ir_version
    .string(2, 'manual-copilot-tests') // producer_name
    .message(7, graph)
    .message(8, pb().string(1, '').int(2, 13)) // opset_import: default domain, opset 13
    .finish();
}

// --- tokenizer + config ---------------------------------------------------------------------------

export const TINY_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const TINY_WORDS = [
  'the',
  'pump',
  'motor',
  'voltage',
  'fuse',
  'error',
  'code',
  'reset',
  'press',
  'button',
  'battery',
  'charge',
  'current',
  'pin',
  'connector',
  'ground',
  'power',
  'led',
  'red',
  'green',
  '##s',
  '##ing',
  '##ed',
  '3',
  '.',
  'v',
  'e',
  '##1',
  '##2',
  ',',
  '?',
  'what',
  'is',
  'how',
  'to',
];

export interface TinyBertModel {
  /** The folder holding config.json, tokenizer files and onnx/model*.onnx. */
  dir: string;
  vocab: string[];
  dim: number;
  /** Row-major [vocab, dim]. */
  wordEmb: Float32Array;
  /** Row-major [2, dim]. */
  typeEmb: Float32Array;
  /** Added at every attended position ([dim]). */
  maskBias: Float32Array;
  /** All files written, relative to `dir` (what a hub would serve). */
  files: string[];
}

export interface TinyBertOptions {
  dim?: number;
  /** ONNX file name under onnx/: model.onnx (fp32, default) or model_quantized.onnx (q8). */
  onnxFile?: string;
  /** Writes a sentence-transformers 1_Pooling/config.json with this mode. */
  pooling?: 'cls' | 'mean';
  seed?: number;
}

/** Writes the tiny model into `dir` (created if needed) and returns its tables for expected values. */
export function writeTinyBertModel(dir: string, opts: TinyBertOptions = {}): TinyBertModel {
  const dim = opts.dim ?? 8;
  const vocab = [...TINY_SPECIAL_TOKENS, ...TINY_WORDS];
  // mulberry32: deterministic tables so expected values are reproducible across runs.
  const rand = prng(opts.seed ?? 42);
  const wordEmb = new Float32Array(vocab.length * dim).map(() => rand() * 2 - 1);
  const typeEmb = new Float32Array(2 * dim).map(() => (rand() * 2 - 1) * 0.1);
  const maskBias = new Float32Array(dim).map(() => rand() * 2 - 1);

  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
  const config = {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: dim,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    intermediate_size: dim,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: vocab.length,
    pad_token_id: 0,
  };

  const onnxFile = opts.onnxFile ?? 'model.onnx';
  const files: Record<string, string | Uint8Array> = {
    'config.json': JSON.stringify(config, null, 2),
    'tokenizer.json': JSON.stringify(tokenizerJson),
    'tokenizer_config.json': JSON.stringify(tokenizerConfig, null, 2),
    [`onnx/${onnxFile}`]: encodeTinyBertOnnx(wordEmb, typeEmb, maskBias, vocab.length, dim),
  };
  if (opts.pooling) {
    files['1_Pooling/config.json'] = JSON.stringify({
      word_embedding_dimension: dim,
      pooling_mode_cls_token: opts.pooling === 'cls',
      pooling_mode_mean_tokens: opts.pooling === 'mean',
      pooling_mode_max_tokens: false,
    });
  }
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return { dir, vocab, dim, wordEmb, typeEmb, maskBias, files: Object.keys(files) };
}

/** Row `id` of a row-major table. */
export function row(table: Float32Array, id: number, dim: number): Float32Array {
  return table.slice(id * dim, (id + 1) * dim);
}
