import { optionalString } from '../../config';
import type { ProviderDescriptor, ResolveContext, RoleSpec, ProviderEnv } from '../descriptor';
import { GeminiEmbedder } from '../embeddings/gemini';
import { envInt } from '../embeddings/util';
import { createGeminiModel } from './gemini';

const KEY = 'GOOGLE_GENERATIVE_AI_API_KEY';
const NEEDS_KEY = ['GEMINI_MODEL', 'GEMINI_VISION_MODEL', 'GEMINI_EMBEDDING_MODEL'] as const;
const DEFAULT_MODEL = 'gemini-2.5-flash';
const DEFAULT_EMBEDDING_MODEL = 'gemini-embedding-001';

function chatModel(vision: boolean): RoleSpec<'llm'> & RoleSpec<'vlm'> {
  return {
    auto: (env) => !!env[KEY],
    resolve(env: ProviderEnv, { variable, problems }: ResolveContext) {
      if (!env[KEY]) problems.push(`${variable}=gemini needs ${KEY}`);
      const model = (vision ? env.GEMINI_VISION_MODEL : undefined) ?? env.GEMINI_MODEL ?? DEFAULT_MODEL;
      return { mode: 'cloud', model, apiKey: env[KEY], detail: `Gemini ${model}` };
    },
    create({ apiKey, model }, { fetch }) {
      if (!apiKey) throw new Error(`Gemini selected but ${KEY} is not set`);
      return createGeminiModel({ apiKey, modelId: model!, fetch });
    },
  };
}

/** Google's Gemini API for chat, vision and embeddings: chosen for chat when its API key is set. */
export const geminiProvider: ProviderDescriptor = {
  name: 'gemini',
  env: { [KEY]: optionalString, GEMINI_MODEL: optionalString, GEMINI_VISION_MODEL: optionalString, GEMINI_EMBEDDING_MODEL: optionalString },
  secrets: [KEY],
  check(env, _chosen, problems) {
    if (env[KEY]) return;
    for (const name of NEEDS_KEY) {
      if (env[name]) problems.push(`${name} is set but ${KEY} is not: add the Gemini API key`);
    }
  },
  roles: {
    llm: chatModel(false),
    vlm: chatModel(true),
    embeddings: {
      auto: (env) => !!env[KEY] && !!env.GEMINI_EMBEDDING_MODEL,
      batchSize: 100,
      resolve(env, { variable, problems }) {
        if (!env[KEY]) problems.push(`${variable}=gemini needs ${KEY}`);
        const model = env.GEMINI_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL;
        return { mode: 'cloud', model, apiKey: env[KEY], detail: `Gemini ${model}` };
      },
      async create({ apiKey, model }) {
        if (!apiKey) throw new Error(`EMBEDDINGS=gemini needs ${KEY}`);
        return new GeminiEmbedder({ apiKey, model: model!, timeoutMs: envInt('EMBEDDING_TIMEOUT_MS', 60_000) });
      },
    },
  },
};
