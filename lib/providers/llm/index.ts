/**
 * The LLM and VLM roles. `getLLM()` / `getVLM()` return the configured client or null when the
 * role's provider is 'none'. A backend is a provider descriptor (README "Adding a provider"): this
 * factory wraps the model its descriptor creates with retries, deadlines, logs and recording.
 *
 * Environment (besides the providers' own variables, in their descriptors):
 *   MC_LLM_TIMEOUT_MS    per-call deadline, default 60000 (0 = none)
 *   MC_LLM_MAX_ATTEMPTS  model calls per request incl. the first, default 3
 *   MC_LLM_RECORD=path   append every successful call to a JSONL cassette
 *   MC_LLM_REPLAY=path   answer every call from a cassette; unknown requests fail (llm:replay_miss)
 *   MC_LOG_LEVEL         debug | info | warn | error | silent (silent by default under vitest)
 */
import { runtimeEnv, type RuntimeEnvVar } from '../../config';
import { getProviderConfig, roleSpec } from '../roles';
import type { ProviderConfig, ProviderDescriptor } from '../descriptor';
import { PROVIDERS } from '../registry';
import type { LlmClient } from '../types';
import { readCassette } from './cassette';
import { createLlmClient, type LlmClientOptions } from './client';
import type { LanguageModelV3 } from './sdk-types';

export type { LlmClientOptions } from './client';
export { visionPrompt } from './messages';

export type LlmRole = 'llm' | 'vlm';

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
  config: ProviderConfig,
  options: LlmClientOptions & { fetch?: typeof globalThis.fetch; registry?: readonly ProviderDescriptor[] } = {},
): LlmClient | null {
  const { fetch, registry, ...clientOptions } = options;
  const rc = config[role];
  const vision = role === 'vlm';
  if (rc.provider === 'none') return clientOptions.replay ? replayOnlyClient(role, clientOptions) : null;
  if (!rc.model) throw new Error(`${role.toUpperCase()} provider ${rc.provider} has no model configured`);
  const model = roleSpec(role, rc.provider, registry).create(rc, { fetch });
  if (!model) return null;
  return createLlmClient(model, {
    ...clientOptions,
    provider: rc.provider,
    role,
    vision,
    secrets: [...config.providerSecrets, ...(clientOptions.secrets ?? [])],
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
  const provider = PROVIDERS.some((p) => p.name === recorded.provider && p.roles[role]) ? recorded.provider : 'test';
  return createLlmClient(model, { ...options, provider, role, vision: role === 'vlm' });
}

// One client per role, config object (getConfig() returns a new one when the env changes) and
// client options from the env.
const memo = new WeakMap<ProviderConfig, Map<string, LlmClient | null>>();

function memoised(role: LlmRole): LlmClient | null {
  const config = getProviderConfig();
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
