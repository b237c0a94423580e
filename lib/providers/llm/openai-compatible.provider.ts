import { hostOf, isLoopbackUrl, optionalString, optionalUrl } from '../../config';
import type { ProviderDescriptor, ProviderEnv, ResolveContext, RoleSpec } from '../descriptor';
import { OpenAICompatibleEmbedder } from '../embeddings/openai-compatible';
import { envInt } from '../embeddings/util';
import { createOpenAICompatibleModel } from './openai-compatible';

const BASE = 'OPENAI_COMPATIBLE_BASE_URL';
const NEEDS_BASE = ['OPENAI_COMPATIBLE_API_KEY', 'OPENAI_COMPATIBLE_MODEL', 'OPENAI_COMPATIBLE_VISION_MODEL', 'OPENAI_COMPATIBLE_EMBEDDING_MODEL'] as const;

/** A server on this machine is self-hosted (local); anything else is a cloud service. */
const server = (env: ProviderEnv) => {
  const url = env[BASE];
  return {
    url,
    apiKey: env.OPENAI_COMPATIBLE_API_KEY,
    mode: url && !isLoopbackUrl(url) ? ('cloud' as const) : ('local' as const),
    host: url ? hostOf(url) : '?',
  };
};

function chatModel(vision: boolean): RoleSpec<'llm'> & RoleSpec<'vlm'> {
  return {
    // The text model picks the provider for both roles; the vision model only overrides the VLM's.
    auto: (env) => !!env[BASE] && !!env.OPENAI_COMPATIBLE_MODEL,
    resolve(env: ProviderEnv, { variable, problems }: ResolveContext) {
      const s = server(env);
      if (!s.url) problems.push(`${variable}=openai-compatible needs ${BASE}`);
      const model = (vision ? env.OPENAI_COMPATIBLE_VISION_MODEL : undefined) ?? env.OPENAI_COMPATIBLE_MODEL;
      if (!model) problems.push(`${variable}=openai-compatible needs OPENAI_COMPATIBLE_MODEL${vision ? ' or OPENAI_COMPATIBLE_VISION_MODEL' : ''}`);
      return { mode: s.mode, model, url: s.url, apiKey: s.apiKey, detail: `${model ?? '?'} via ${s.host}` };
    },
    create({ url, apiKey, model }, { fetch }) {
      if (!url) throw new Error(`OpenAI-compatible selected but ${BASE} is not set`);
      return createOpenAICompatibleModel({ baseURL: url, apiKey, modelId: model!, fetch });
    },
  };
}

/** Any server speaking the OpenAI API (Ollama, vLLM, LM Studio, hosted services) for chat, vision and embeddings. */
export const openaiCompatibleProvider: ProviderDescriptor = {
  name: 'openai-compatible',
  env: {
    [BASE]: optionalUrl,
    OPENAI_COMPATIBLE_API_KEY: optionalString,
    OPENAI_COMPATIBLE_MODEL: optionalString,
    OPENAI_COMPATIBLE_VISION_MODEL: optionalString,
    OPENAI_COMPATIBLE_EMBEDDING_MODEL: optionalString,
  },
  secrets: ['OPENAI_COMPATIBLE_API_KEY'],
  check(env, _chosen, problems) {
    if (env[BASE]) return;
    for (const name of NEEDS_BASE) {
      if (env[name]) problems.push(`${name} is set but ${BASE} is not: set the server URL (e.g. http://localhost:11434/v1 for Ollama)`);
    }
  },
  roles: {
    llm: chatModel(false),
    vlm: chatModel(true),
    embeddings: {
      auto: (env) => !!env.OPENAI_COMPATIBLE_EMBEDDING_MODEL,
      batchSize: 64,
      resolve(env, { variable, problems }) {
        const s = server(env);
        const model = env.OPENAI_COMPATIBLE_EMBEDDING_MODEL;
        if (!s.url) problems.push(`${variable}=openai-compatible needs ${BASE}`);
        if (!model) problems.push(`${variable}=openai-compatible needs OPENAI_COMPATIBLE_EMBEDDING_MODEL (e.g. nomic-embed-text)`);
        return { mode: s.mode, model: model ?? '', url: s.url, apiKey: s.apiKey, detail: `${model ?? '?'} via ${s.host}` };
      },
      create({ url, apiKey, model }) {
        if (!url) throw new Error(`EMBEDDINGS=openai-compatible needs ${BASE}`);
        return OpenAICompatibleEmbedder.create({ baseURL: url, apiKey, model: model!, timeoutMs: envInt('EMBEDDING_TIMEOUT_MS', 60_000) });
      },
    },
  },
};
