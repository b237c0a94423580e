/**
 * What a provider is to the rest of the app: one descriptor per provider, kept beside its code and
 * listed once in registry.ts. lib/providers/config.ts builds the schema, the resolvers and the
 * secrets list from the descriptors; the factories (`<role>/index.ts`) create through them.
 */
import type { z } from 'zod';
import type { AppConfig } from '../config';
import type { VectorCache } from './embeddings/cache';
import type { LanguageModelV3 } from './llm/sdk-types';
import type { Embedder, MultiVectorEmbedder, Reranker, VectorStore } from './types';

type ProviderMode = 'offline' | 'local' | 'cloud';

/** The roles a provider may serve, each picked by its variable (auto: the first provider that claims it). */
export const ROLE_VARIABLES = {
  vectorDb: 'VECTOR_DB',
  embeddings: 'EMBEDDINGS',
  multiVector: 'MULTIVECTOR',
  llm: 'LLM_PROVIDER',
  vlm: 'VLM_PROVIDER',
  reranker: 'RERANKER',
} as const;
export type Role = keyof typeof ROLE_VARIABLES;

/** A role as configured: its provider and what the provider resolved from the environment. */
export interface RoleConfig {
  provider: string;
  mode: ProviderMode;
  /** Human-readable detail for /api/health and the UI (model name, URL host, fallback…). */
  detail: string;
  model?: string;
  modelDir?: string;
  url?: string;
  apiKey?: string;
}

export type DeciderProvider = 'rules' | 'llm';

/** The configuration with every role resolved. */
export type ProviderConfig = AppConfig &
  Record<Role, RoleConfig> & {
    decider: { provider: DeciderProvider; mode: ProviderMode; detail: string };
    /** The values of the descriptors' secret variables that are set: redacted from logs and errors. */
    providerSecrets: string[];
  };

/** The parsed variables (every provider variable is an optional string). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

export interface ResolveContext {
  role: Role;
  /** The role's variable, for messages: `${variable}=gemini needs …`. */
  variable: string;
  problems: string[];
  /** The roles resolved before this one, in ROLE_VARIABLES order. */
  resolved: Partial<Record<Role, RoleConfig>>;
}

/** What the factory of each role hands a provider, besides its role's configuration. */
export interface CreateContext {
  vectorDb: { dataDir: string };
  embeddings: { dataDir: string };
  multiVector: {
    dataDir: string;
    /** The active dense embedder when it gives token vectors (see `tokenVectors`), else undefined. */
    tokenEmbedder(): Promise<Embedder | undefined>;
    /** The shared persistent vector cache, or null when it cannot be opened. */
    cache(): Promise<VectorCache | null>;
  };
  llm: { fetch?: typeof globalThis.fetch };
  vlm: { fetch?: typeof globalThis.fetch };
  reranker: { dataDir: string };
}

/** What each role's provider makes; null: the role is off. */
interface Instances {
  vectorDb: Promise<VectorStore & { readonly closed: boolean }>;
  embeddings: Promise<Embedder>;
  multiVector: Promise<MultiVectorEmbedder>;
  llm: LanguageModelV3 | null;
  vlm: LanguageModelV3 | null;
  reranker: Promise<Reranker | null>;
}

export interface RoleSpec<R extends Role> {
  /** With the role's variable at `auto`, the first provider in registry order whose `auto` holds serves it. */
  auto?: (env: ProviderEnv) => boolean;
  /** Serves the role when its variable is `auto` and no provider claims it. */
  fallback?: true;
  resolve(env: ProviderEnv, ctx: ResolveContext): Omit<RoleConfig, 'provider'>;
  create(config: RoleConfig, ctx: CreateContext[R]): Instances[R];
  /** Embeddings: texts per inner call (EMBEDDING_BATCH_SIZE overrides). */
  batchSize?: number;
  /** Embeddings: it gives per-token vectors, which the local multi-vector provider pools. */
  tokenVectors?: true;
}

export interface ProviderDescriptor {
  /** The value of a role's variable that picks it (`LLM_PROVIDER=gemini`). */
  name: string;
  /** Its variables (each documented in .env.example). */
  env: z.ZodRawShape;
  /** Which of its variables hold secrets: redacted from logs and errors, kept out of the browser. */
  secrets?: readonly string[];
  roles: { [R in Role]?: RoleSpec<R> };
  /** Half-set or contradictory variables, given the provider each role resolved to. */
  check?(env: ProviderEnv, chosen: Record<Role, string>, problems: string[]): void;
}
