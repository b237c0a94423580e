/**
 * The configuration with its providers: the app's settings (lib/config) extended with every
 * descriptor's variables and one resolver per role, all read from the registry. Each role gets a
 * provider and a mode: `offline` (embedded, no keys, no servers), `local` (a self-hosted server)
 * or `cloud`.
 */
import type { z } from 'zod';
import { APP_ENV_VARS, APP_SECRET_ENV_VARS, cachedByEnv, choice, loadConfig, type RawEnv } from '../config';
import {
  ROLE_VARIABLES,
  type DeciderProvider,
  type ProviderConfig,
  type ProviderDescriptor,
  type ProviderEnv,
  type Role,
  type RoleConfig,
  type RoleSpec,
} from './descriptor';
import { PROVIDERS } from './registry';

const ROLES = Object.keys(ROLE_VARIABLES) as Role[];
type Registry = readonly ProviderDescriptor[];

/** The providers that serve `role`, in registry order. */
const serving = <R extends Role>(role: R, registry: Registry) =>
  registry.flatMap((d) => (d.roles[role] ? [{ name: d.name, spec: d.roles[role] as RoleSpec<R> }] : []));

/** The spec with which `provider` serves `role` (the factories create through it). */
export function roleSpec<R extends Role>(role: R, provider: string, registry: Registry = PROVIDERS): RoleSpec<R> {
  const row = serving(role, registry).find((p) => p.name === provider);
  if (!row) throw new Error(`no provider "${provider}" serves ${ROLE_VARIABLES[role]}`);
  return row.spec;
}

function schemaOf(registry: Registry): z.ZodRawShape {
  const shape: Record<string, z.ZodType> = {};
  for (const role of ROLES) {
    const names = serving(role, registry).map((p) => p.name);
    shape[ROLE_VARIABLES[role]] = choice(['auto', ...names] as [string, ...string[]]);
  }
  shape.DECIDER = choice(['auto', 'rules', 'llm'] as const);
  for (const d of registry) Object.assign(shape, d.env);
  return shape;
}

function pick(role: Role, env: ProviderEnv, registry: Registry): string {
  const wanted = env[ROLE_VARIABLES[role]];
  if (wanted && wanted !== 'auto') return wanted;
  const providers = serving(role, registry);
  const claimed = providers.find((p) => p.spec.auto?.(env)) ?? providers.find((p) => p.spec.fallback);
  if (!claimed) throw new Error(`no provider serves ${ROLE_VARIABLES[role]} by default`);
  return claimed.name;
}

function resolveRoles(env: ProviderEnv, registry: Registry, problems: string[]) {
  const chosen = Object.fromEntries(ROLES.map((role) => [role, pick(role, env, registry)])) as Record<Role, string>;
  for (const d of registry) d.check?.(env, chosen, problems);
  const resolved: Partial<Record<Role, RoleConfig>> = {};
  for (const role of ROLES) {
    const spec = roleSpec(role, chosen[role], registry);
    resolved[role] = { provider: chosen[role], ...spec.resolve(env, { role, variable: ROLE_VARIABLES[role], problems, resolved }) };
  }
  const roles = resolved as Record<Role, RoleConfig>;
  const providerSecrets = registry.flatMap((d) => (d.secrets ?? []).flatMap((name) => (env[name] ? [env[name]] : [])));
  return { ...roles, decider: resolveDecider(env.DECIDER, roles.llm, problems), providerSecrets };
}

/** The decider is not a provider: it follows the LLM role unless DECIDER says rules. */
function resolveDecider(wanted: string | undefined, llm: RoleConfig, problems: string[]): ProviderConfig['decider'] {
  const off = llm.provider === 'none';
  if (wanted === 'llm' && off) problems.push('DECIDER=llm needs an LLM: set LLM_PROVIDER (or OPENAI_COMPATIBLE_* / GOOGLE_GENERATIVE_AI_API_KEY)');
  const provider: DeciderProvider = wanted === 'rules' || off ? 'rules' : 'llm';
  return provider === 'rules'
    ? { provider, mode: 'offline', detail: 'selection matrix + skills (no LLM call)' }
    : { provider, mode: llm.mode, detail: `LLM decisions (${llm.detail}), rules fast path` };
}

/** The configuration of `env` with every role resolved through `registry` (tests pass their own). */
export function loadProviderConfig(env: RawEnv = process.env, registry: Registry = PROVIDERS): ProviderConfig {
  return loadConfig(env, { shape: schemaOf(registry), resolve: (values, problems) => resolveRoles(values as ProviderEnv, registry, problems) });
}

const PROVIDER_ENV_VARS = Object.keys(schemaOf(PROVIDERS));

/** The process-wide configuration with its providers, re-read only when the environment changes. */
export const getProviderConfig: () => ProviderConfig = cachedByEnv([...APP_ENV_VARS, ...PROVIDER_ENV_VARS], (env) => loadProviderConfig(env));

/** Every variable the app reads: its own, the runtime ones and the providers' (a test checks .env.example lists them all). @internal */
export const ALL_ENV_VARS: readonly string[] = [...APP_ENV_VARS, ...PROVIDER_ENV_VARS];

/** Variables whose values must never reach a browser, a log line or an error shown to a user (tests check each). */
export const secretEnvVars = (registry: Registry = PROVIDERS): readonly string[] => [...APP_SECRET_ENV_VARS, ...registry.flatMap((d) => d.secrets ?? [])];
/** @internal */
export const SECRET_ENV_VARS = secretEnvVars();

/** What /api/health and the UI show for each role, without secrets. */
export function describeProviders(config: ProviderConfig) {
  const role = (r: Pick<RoleConfig, 'provider' | 'mode' | 'detail'>) => ({ provider: r.provider, mode: r.mode, detail: r.detail });
  return {
    vectorDb: role(config.vectorDb),
    embeddings: role(config.embeddings),
    multiVector: role(config.multiVector),
    llm: role(config.llm),
    vlm: role(config.vlm),
    decider: role(config.decider),
    reranker: role(config.reranker),
  };
}
