/**
 * Adding a provider is its descriptor and one registry row: a throwaway provider registered here
 * is chosen from its variables, created by the LLM factory, and its key is redacted.
 */
import { inspect } from 'node:util';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { ConfigError, optionalString, optionalUrl } from '../config';
import type { ProviderDescriptor } from './descriptor';
import { createClientFromConfig } from './llm';
import type { LanguageModelV3 } from './llm/sdk-types';
import { PROVIDERS } from './registry';
import { describeProviders, loadProviderConfig, secretEnvVars } from './roles';

const KEY = 'toy-sentinel-key-5b8e21c07f3d';

/** A model whose server echoes the key it was sent in its error, as careless ones do. */
function toyModel(modelId: string, apiKey: string): LanguageModelV3 {
  const fail = async (): Promise<never> => {
    throw new Error(`unauthorised: key ${apiKey} was refused`);
  };
  return { specificationVersion: 'v3', provider: 'toy', modelId, supportedUrls: {}, doGenerate: fail, doStream: fail };
}

const toy: ProviderDescriptor = {
  name: 'toy',
  env: { TOY_URL: optionalUrl, TOY_API_KEY: optionalString },
  secrets: ['TOY_API_KEY'],
  roles: {
    llm: {
      auto: (env) => !!env.TOY_URL,
      resolve(env, { variable, problems }) {
        if (!env.TOY_URL) problems.push(`${variable}=toy needs TOY_URL`);
        return { mode: 'local', model: 'toy-1', url: env.TOY_URL, apiKey: env.TOY_API_KEY, detail: 'toy model' };
      },
      create: ({ model, apiKey }) => toyModel(model!, apiKey ?? ''),
    },
  },
};
const registry = [...PROVIDERS, toy];

describe('a provider added by its descriptor and one registry row', () => {
  it('is chosen from its variables, with its mode and detail, and validated like the others', () => {
    const config = loadProviderConfig({ TOY_URL: 'http://127.0.0.1:9', TOY_API_KEY: KEY }, registry);
    expect(config.llm).toMatchObject({ provider: 'toy', mode: 'local', model: 'toy-1' });
    expect(config.decider.provider).toBe('llm');
    expect(describeProviders(config).llm).toEqual({ provider: 'toy', mode: 'local', detail: 'toy model' });
    expect(JSON.stringify(describeProviders(config))).not.toContain(KEY);
    expect(() => loadProviderConfig({ LLM_PROVIDER: 'toy' }, registry)).toThrow(/LLM_PROVIDER=toy needs TOY_URL/);
    // Unregistered, the name is not a choice.
    expect(() => loadProviderConfig({ LLM_PROVIDER: 'toy' })).toThrow(ConfigError);
    expect(() => loadProviderConfig({ LLM_PROVIDER: 'toy' })).toThrow(/LLM_PROVIDER must be one of: auto, none, openai-compatible, gemini/);
  });

  it('is created by the factory, and its key never reaches an error', async () => {
    const config = loadProviderConfig({ LLM_PROVIDER: 'toy', TOY_URL: 'http://127.0.0.1:9', TOY_API_KEY: KEY }, registry);
    const client = createClientFromConfig('llm', config, { registry, maxAttempts: 1 })!;
    expect(client).toMatchObject({ provider: 'toy', modelId: 'toy-1', vision: false });
    const error = await generateText({ model: client.model, prompt: 'hello', maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(inspect(error, { depth: 8 })).not.toContain(KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('names its secret variables with the app’s, for the checks that keep them out of logs and pages', () => {
    expect(secretEnvVars(registry)).toContain('TOY_API_KEY');
    expect(secretEnvVars()).not.toContain('TOY_API_KEY');
    expect(secretEnvVars()).toEqual(
      expect.arrayContaining(['WEAVIATE_API_KEY', 'OPENAI_COMPATIBLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'SESSION_SECRET']),
    );
  });
});
