/**
 * Every provider, one row each. Adding a provider is its descriptor file (beside its code) and its
 * row here. The order matters twice: a role's variable lists its providers in this order, and with
 * the variable at `auto` the first provider whose `auto` holds serves the role.
 */
import type { ProviderDescriptor } from './descriptor';
import { offlineProvider } from './embeddings/offline.provider';
import { transformersProvider } from './transformers.provider';
import { geminiProvider } from './llm/gemini.provider';
import { openaiCompatibleProvider } from './llm/openai-compatible.provider';
import { colqwenProvider } from './multivector/colqwen.provider';
import { localMultiVectorProvider } from './multivector/local.provider';
import { noneProvider } from './none.provider';
import { lancedbProvider } from './vectorstore/lancedb.provider';
import { weaviateProvider } from './vectorstore/weaviate.provider';

export const PROVIDERS: readonly ProviderDescriptor[] = [
  noneProvider,
  lancedbProvider,
  weaviateProvider,
  transformersProvider,
  offlineProvider,
  localMultiVectorProvider,
  colqwenProvider,
  openaiCompatibleProvider,
  geminiProvider,
];
