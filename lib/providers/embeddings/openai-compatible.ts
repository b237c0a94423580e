/**
 * OpenAI-compatible /embeddings (Ollama, vLLM, LM Studio, llama.cpp server, TEI…) through
 * @ai-sdk/openai-compatible. The API has no query/document distinction, so the instruction
 * prefixes of known asymmetric models (nomic-embed-text, e5, bge) are added to the text.
 * Servers do not announce the vector size, so creation embeds one probe text to learn it.
 * Request size is bounded by the caching wrapper's batch size (EMBEDDING_BATCH_SIZE).
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import type { CallOptions, Embedder } from '../types';
import { instructionPrefixes, type InstructionPrefixes } from './prefixes';
import { l2normalize, toFloat32 } from './util';

export interface OpenAICompatibleEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  fetch?: typeof fetch;
  maxRetries?: number;
}

export class OpenAICompatibleEmbedder implements Embedder {
  readonly provider = 'openai-compatible' as const;
  readonly id: string;
  private readonly model: EmbeddingModel;
  private readonly prefixes: InstructionPrefixes;
  private readonly maxRetries: number;

  private constructor(
    opts: OpenAICompatibleEmbedderOptions,
    readonly dimensions: number,
    model: EmbeddingModel,
  ) {
    this.id = `openai-compatible:${new URL(opts.baseURL).host}:${opts.model}:${dimensions}`;
    this.model = model;
    this.prefixes = instructionPrefixes(opts.model);
    this.maxRetries = opts.maxRetries ?? 2;
  }

  /** Creates the embedder after one probe call that learns the vector size. */
  static async create(opts: OpenAICompatibleEmbedderOptions, callOpts?: CallOptions): Promise<OpenAICompatibleEmbedder> {
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: opts.baseURL,
      apiKey: opts.apiKey,
      fetch: opts.fetch,
    });
    const model = provider.embeddingModel(opts.model);
    const { embedding } = await embed({ model, value: 'dimension probe', abortSignal: callOpts?.signal, maxRetries: opts.maxRetries ?? 2 });
    if (!embedding.length) throw new Error(`${opts.model} at ${opts.baseURL} returned an empty embedding`);
    return new OpenAICompatibleEmbedder(opts, embedding.length, model);
  }

  async embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { embeddings } = await embedMany({
      model: this.model,
      values: texts.map((t) => this.prefixes.document + t),
      abortSignal: opts?.signal,
      maxRetries: this.maxRetries,
      maxParallelCalls: 2,
    });
    return embeddings.map((e) => this.check(e));
  }

  async embedQuery(text: string, opts?: CallOptions): Promise<Float32Array> {
    const { embedding } = await embed({
      model: this.model,
      value: this.prefixes.query + text,
      abortSignal: opts?.signal,
      maxRetries: this.maxRetries,
    });
    return this.check(embedding);
  }

  private check(values: number[]): Float32Array {
    if (values.length !== this.dimensions) {
      throw new Error(`${this.id} returned ${values.length} dimensions, expected ${this.dimensions}`);
    }
    return l2normalize(toFloat32(values));
  }
}
