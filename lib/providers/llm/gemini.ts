/**
 * Gemini via @ai-sdk/google (Generative Language API). Page images go in as file parts and reach
 * the API as inlineData { mimeType, data: base64 }.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { LanguageModelV3 } from './sdk-types';

export interface GeminiModelOptions {
  apiKey: string;
  modelId: string;
  /** Override for tests (a fake fetch) or proxies. */
  fetch?: typeof globalThis.fetch;
  baseURL?: string;
}

export function createGeminiModel(opts: GeminiModelOptions): LanguageModelV3 {
  return createGoogleGenerativeAI({ apiKey: opts.apiKey, fetch: opts.fetch, baseURL: opts.baseURL }).languageModel(opts.modelId);
}
