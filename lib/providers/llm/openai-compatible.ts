/**
 * Any server speaking OpenAI's /chat/completions (Ollama, vLLM, LM Studio, llama.cpp server…)
 * via @ai-sdk/openai-compatible. Images go in as image_url parts with a data: URL.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from './sdk-types';

export interface OpenAICompatibleModelOptions {
  baseURL: string;
  /** Sent as `Authorization: Bearer …` when set; local servers usually need none. */
  apiKey?: string;
  modelId: string;
  /** Override for tests (a fake fetch) or proxies. */
  fetch?: typeof globalThis.fetch;
}

export function createOpenAICompatibleModel(opts: OpenAICompatibleModelOptions): LanguageModelV3 {
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: opts.baseURL,
    apiKey: opts.apiKey,
    fetch: opts.fetch,
    // Ask for token usage on streams too (stream_options.include_usage), so logs have it.
    includeUsage: true,
  }).chatModel(opts.modelId);
}
