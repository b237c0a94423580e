/**
 * Provider-spec (V3) types derived from the public `ai` exports, so this folder depends only on
 * packages listed in package.json (`@ai-sdk/provider` is a transitive dependency).
 */
import type { LanguageModelMiddleware, wrapLanguageModel } from 'ai';

export type LanguageModelV3 = Parameters<typeof wrapLanguageModel>[0]['model'];
export type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
export type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
export type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
export type Content = GenerateResult['content'][number];
export type Usage = GenerateResult['usage'];
export type FinishReason = GenerateResult['finishReason'];
export type Middleware = LanguageModelMiddleware;
