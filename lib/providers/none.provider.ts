/** No model for a role: the LLM and VLM roles answer offline, the reranking stage is skipped. */
import type { ProviderDescriptor } from './descriptor';

const off = (detail: string) => ({ mode: 'offline' as const, detail });

export const noneProvider: ProviderDescriptor = {
  name: 'none',
  env: {},
  roles: {
    llm: { fallback: true, resolve: () => off('no LLM: rules decisions and extractive cited answers'), create: () => null },
    vlm: { fallback: true, resolve: () => off('no vision model: visual interpretation unavailable'), create: () => null },
    reranker: { resolve: () => off('turned off (RERANKER=none)'), create: async () => null },
  },
};
