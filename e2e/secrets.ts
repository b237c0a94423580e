import { SECRET_ENV_VARS } from '../lib/providers/roles';

/**
 * Recognisable fake values for every secret variable, set on the browser tests' server (and its
 * build) so e2e/security.spec.ts can prove none of them reaches a page, a payload or a bundle.
 */
export const SECRET_SENTINELS: Record<string, string> = {
  WEAVIATE_API_KEY: 'sentinel-weaviate-key-5b1e0c7d9a',
  OPENAI_COMPATIBLE_API_KEY: 'sentinel-openai-key-3f8a2d6c41',
  GOOGLE_GENERATIVE_AI_API_KEY: 'sentinel-gemini-key-9c4b7e1f20',
  SESSION_SECRET: 'sentinel-session-secret-6d2a9f3b87',
  MCP_API_KEY: 'sentinel-mcp-key-2e7c5a9d13',
  MC_ADMIN_PASSWORD: 'sentinel-admin-password-8e1c5a7b30',
  AUTH_OIDC_CLIENT_SECRET: 'sentinel-oidc-secret-2a7f9d4e61',
};

/**
 * The server's environment: the sentinels, plus what keeps the configuration valid and the app on
 * its offline providers (a key needs its URL; nothing listens on port 9, and nothing calls it:
 * LLM/VLM are off and the vector DB stays LanceDB).
 */
export const SENTINEL_ENV: Record<string, string> = {
  ...SECRET_SENTINELS,
  WEAVIATE_URL: 'http://127.0.0.1:9',
  VECTOR_DB: 'lancedb',
  OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
  LLM_PROVIDER: 'none',
  VLM_PROVIDER: 'none',
  // Single sign-on configured (never contacted: on loopback no one signs in) so its secret is covered.
  AUTH_OIDC_ISSUER: 'http://127.0.0.1:9/oidc',
  AUTH_OIDC_CLIENT_ID: 'manual-copilot-e2e',
};

/**
 * Secret variables that cannot carry a fake value on the browser tests' server, and why: setting
 * them would change what the server is (DATABASE_URL switches the store to Postgres). What keeps
 * their secret part out of responses is tested where it is handled.
 */
const NO_SENTINEL_POSSIBLE: Record<string, string> = {
  DATABASE_URL: 'selects the Postgres store; /api/health shows only host:port/database (lib/store/db.ts describeTarget, tested in lib/store/db.test.ts)',
};

/** Secret variables that have no sentinel yet (a new one must be added above). */
export const secretsWithoutSentinel = () => SECRET_ENV_VARS.filter((name) => !SECRET_SENTINELS[name] && !NO_SENTINEL_POSSIBLE[name]);
