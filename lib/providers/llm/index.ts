/**
 * LLM and VLM providers (configured in lib/config). `getLLM()` / `getVLM()` return the configured client or null
 * when the role's provider is 'none'. A backend is its file, a row in BACKENDS, and its variables and
 * resolution in lib/config (README "Adding a provider").
 *
 * Environment (besides the provider variables read by lib/config):
 *   MC_LLM_TIMEOUT_MS    per-call deadline, default 60000 (0 = none)
 *   MC_LLM_MAX_ATTEMPTS  model calls per request incl. the first, default 3
 *   MC_LLM_RECORD=path   append every successful call to a JSONL cassette
 *   MC_LLM_REPLAY=path   answer every call from a cassette; unknown requests fail (llm:replay_miss)
 *   MC_LOG_LEVEL         debug | info | warn | error | silent (silent by default under vitest)
 */
import { getConfig, runtimeEnv, type AppConfig, type LlmProvider, type RuntimeEnvVar } from '../../config';
import type { LlmClient } from '../types';
import { readCassette } from './cassette';
import { createLlmClient, type LlmClientOptions } from './client';
import { createGeminiModel } from './gemini';
import { createOpenAICompatibleModel } from './openai-compatible';
import type { LanguageModelV3 } from './sdk-types';

export type { LlmClientOptions } from './client';
export { visionPrompt } from './messages';

export type LlmRole = 'llm' | 'vlm';

type Backend = (args: { modelId: string; config: AppConfig; fetch?: typeof globalThis.fetch }) => LanguageModelV3;

const BACKENDS: Record<Exclude<LlmProvider, 'none'>, Backend> = {
  gemini: ({ modelId, config, fetch }) => {
    if (!config.gemini) throw new Error('Gemini selected but GOOGLE_GENERATIVE_AI_API_KEY is not set');
    return createGeminiModel({ apiKey: config.gemini.apiKey, modelId, fetch });
  },
  'openai-compatible': ({ modelId, config, fetch }) => {
    if (!config.openaiCompatible) throw new Error('OpenAI-compatible selected but OPENAI_COMPATIBLE_BASE_URL is not set');
    return createOpenAICompatibleModel({ ...config.openaiCompatible, modelId, fetch });
  },
};

const positive = (env: Record<string, string | undefined>, name: RuntimeEnvVar, min: number): number | undefined => {
  const raw = runtimeEnv(name, env);
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return n;
};

/** The client options the environment asks for (see the header). */
export function llmOptionsFromEnv(env: Record<string, string | undefined> = process.env): LlmClientOptions {
  return {
    timeoutMs: positive(env, 'MC_LLM_TIMEOUT_MS', 0),
    maxAttempts: positive(env, 'MC_LLM_MAX_ATTEMPTS', 1),
    record: runtimeEnv('MC_LLM_RECORD', env),
    replay: runtimeEnv('MC_LLM_REPLAY', env),
  };
}

/**
 * Builds the client of a role from a config, without memoising: tests pass a fake `fetch`.
 * With provider 'none' and a replay file, the client is served from the recording alone (model id
 * and provider of the role's most recent recorded call), so eval can replay without any key.
 */
export function createClientFromConfig(
  role: LlmRole,
  config: AppConfig,
  options: LlmClientOptions & { fetch?: typeof globalThis.fetch } = {},
): LlmClient | null {
  const { fetch, ...clientOptions } = options;
  const rc = config[role];
  const vision = role === 'vlm';
  if (rc.provider === 'none') return clientOptions.replay ? replayOnlyClient(role, clientOptions) : null;
  if (!rc.model) throw new Error(`${role.toUpperCase()} provider ${rc.provider} has no model configured`);
  const model = BACKENDS[rc.provider]({ modelId: rc.model, config, fetch });
  return createLlmClient(model, {
    ...clientOptions,
    provider: rc.provider,
    role,
    vision,
    secrets: [config.gemini?.apiKey, config.openaiCompatible?.apiKey, ...(clientOptions.secrets ?? [])],
  });
}

function replayOnlyClient(role: LlmRole, options: LlmClientOptions): LlmClient | null {
  const recorded = readCassette(options.replay!).filter((e) => e.role === role);
  const last = recorded.at(-1);
  if (!last) return null;
  return replayOnlyLlmClient(role, last, options, `replay-only ${role.toUpperCase()} model: no provider is configured, so nothing can be called`);
}

/**
 * A client of `role` as the recording knew it (its provider and model id), answered only from the
 * cassette in `options.replay`: a call the cassette lacks fails with `refusal` instead of calling out.
 */
export function replayOnlyLlmClient(role: LlmRole, recorded: { provider: string; modelId: string }, options: LlmClientOptions, refusal: string): LlmClient {
  const refuse = () => {
    throw new Error(refusal);
  };
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: `replay.${recorded.provider}`,
    modelId: recorded.modelId,
    supportedUrls: {},
    doGenerate: async () => refuse(),
    doStream: async () => refuse(),
  };
  const provider = (['gemini', 'openai-compatible'] as const).find((p) => p === recorded.provider) ?? 'test';
  return createLlmClient(model, { ...options, provider, role, vision: role === 'vlm' });
}

// One client per role, config object (getConfig() returns a new one when the env changes) and
// client options from the env.
const memo = new WeakMap<AppConfig, Map<string, LlmClient | null>>();

function memoised(role: LlmRole): LlmClient | null {
  const config = getConfig();
  const options = llmOptionsFromEnv();
  const key = JSON.stringify([role, options, runtimeEnv('MC_LOG_LEVEL') ?? '']);
  let byKey = memo.get(config);
  if (!byKey) memo.set(config, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, createClientFromConfig(role, config, options));
  return byKey.get(key)!;
}

/** The text model for decisions and answers, or null when LLM_PROVIDER resolves to 'none'. */
export function getLLM(): LlmClient | null {
  return memoised('llm');
}

/** The vision model for page images, or null when VLM_PROVIDER resolves to 'none'. */
export function getVLM(): LlmClient | null {
  return memoised('vlm');
}
