/**
 * API keys: created and revoked by their owner on the settings page, presented as
 * `Authorization: Bearer mc_…` to the MCP endpoint and /api/v1. Only a SHA-256 of a key is
 * stored (a key is 256 random bits, so a fast hash is enough: nothing to brute-force); the key
 * itself is returned once, at creation. Each key has its own rate limit, and every call is
 * audited with who, what, when and how long — never the key.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { actorFor } from '@/lib/auth/roles';
import { getConfig } from '@/lib/config';
import { clientAddress } from '@/lib/config/network';
import { FailureThrottle, type FailureRule } from '@/lib/security/failure-throttle';
import { RateLimiter } from '@/lib/security/rate-limit';
import { findApiKeyByHash, insertApiKey, insertAudit, listApiKeys, revokeApiKey, touchApiKey, type ApiAuditRow } from '@/lib/store/api-keys';

const KEY_PREFIX = 'mc_';

export interface ApiKeyView {
  id: string;
  name: string;
  /** The first characters, to tell keys apart (`mc_AbC1…`). */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** Who is calling: the key's owner (the same identity the web UI uses: owner cookie or user id) and the key's id. */
export interface ApiCaller {
  ownerId: string;
  keyId: string;
}

export class ApiKeyError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'ApiKeyError';
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function createApiKey(ownerId: string, name: string): Promise<{ key: string; view: ApiKeyView }> {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, 80);
  if (!clean) throw new ApiKeyError(400, 'Give the key a name, e.g. the tool that will use it.');
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertApiKey({ id: randomUUID(), ownerId, name: clean, prefix: key.slice(0, 8), hash: hashKey(key) });
  return { key, view: toView(row) };
}

export async function listKeys(ownerId: string): Promise<ApiKeyView[]> {
  return (await listApiKeys(ownerId)).map(toView);
}

export async function revokeKey(ownerId: string, keyId: string): Promise<void> {
  if (!(await revokeApiKey(keyId, ownerId))) throw new ApiKeyError(404, 'That key does not exist, is not yours, or was already revoked.');
}

function toView(row: Awaited<ReturnType<typeof listApiKeys>>[number]): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    revokedAt: row.revokedAt?.getTime() ?? null,
  };
}

const limiters = globalThis as unknown as { __mcApiLimiter?: { perMin: number; limiter: RateLimiter } };

function takeRate(keyId: string) {
  const perMin = getConfig().apiRatePerMin;
  if (limiters.__mcApiLimiter?.perMin !== perMin) limiters.__mcApiLimiter = { perMin, limiter: new RateLimiter({ limit: perMin, windowMs: 60_000 }) };
  return limiters.__mcApiLimiter.limiter.take(keyId);
}

/** Invalid keys (wrong, revoked, of a removed account) per client address: 30 a minute, then 429 with a growing lockout. */
export const INVALID_KEY_RULE: FailureRule = { failures: 30, windowMs: 60_000, maxLockMs: 15 * 60_000 };
const invalidKeys = globalThis as unknown as { __mcInvalidKeys?: FailureThrottle };
const invalidKeyThrottle = () => (invalidKeys.__mcInvalidKeys ??= new FailureThrottle(INVALID_KEY_RULE));

/** Audit rows of keys that match no account have no key or owner to name. */
const UNKNOWN = 'unknown';

/**
 * The caller of a request with `Authorization: Bearer <key>`, after its rate limit; throws ApiKeyError.
 * `address` is the client's (per-address limit on invalid keys; `npm run mcp` has none).
 */
export async function authenticate(authorization: string | null, address = 'local'): Promise<ApiCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new ApiKeyError(401, 'An API key is required: send `Authorization: Bearer <key>` (create one on the Settings page).');
  const addressKey = [`address:${address}`];
  const wait = invalidKeyThrottle().retryAfterS(addressKey);
  if (wait) {
    await audit({ ownerId: UNKNOWN, keyId: UNKNOWN }, 'auth', 0, 'refused', `too many invalid keys from ${address}`);
    throw new ApiKeyError(429, `Too many invalid API keys from this address. Please wait ${wait} s and try again.`, wait);
  }
  /** A 401 for a key that does not work: audited with the address, and counted against it. */
  const invalid = async (caller: ApiCaller, why: string, message: string): Promise<never> => {
    invalidKeyThrottle().fail(addressKey);
    await audit(caller, 'auth', 0, 'refused', `${why} (from ${address})`);
    throw new ApiKeyError(401, message);
  };
  const row = match[1].startsWith(KEY_PREFIX) ? await findApiKeyByHash(hashKey(match[1])) : undefined;
  if (!row) return invalid({ ownerId: UNKNOWN, keyId: UNKNOWN }, 'unknown key', 'This API key is not valid.');
  const caller = { ownerId: row.ownerId, keyId: row.id };
  if (row.revokedAt) return invalid(caller, 'revoked key', 'This API key was revoked.');
  // A key acts as its creator, with the creator's rights of now: where sign-in is required, a
  // creator whose account was removed (or an anonymous owner from before sign-in was turned on)
  // takes their keys with them, and one who is no longer an administrator — the only role that
  // may hold keys there (lib/api/key-owner.ts) — can no longer use theirs.
  const actor = await actorFor(row.ownerId);
  if (!actor) return invalid(caller, 'owner has no account', 'This API key belongs to an account that no longer exists.');
  if (getConfig().auth.signInRequired && actor.role !== 'admin') {
    await audit(caller, 'auth', 0, 'refused', 'owner is no longer an administrator');
    throw new ApiKeyError(403, 'This API key’s creator is no longer an administrator: only administrators may use API keys here.');
  }
  const rate = takeRate(row.id);
  if (!rate.ok) {
    await audit(caller, 'auth', 0, 'refused', 'rate limited');
    throw new ApiKeyError(429, `Too many calls with this key. Please wait ${rate.retryAfterS} s and try again.`, rate.retryAfterS);
  }
  void touchApiKey(row.id).catch(() => undefined);
  return caller;
}

/** Records one call; a failed write is logged, never fatal to the call. */
async function audit(caller: ApiCaller, tool: string, ms: number, outcome: ApiAuditRow['outcome'], message?: string): Promise<void> {
  await insertAudit({ keyId: caller.keyId, ownerId: caller.ownerId, tool, ms: Math.round(ms), outcome, message }).catch((err) => console.error('[api] could not write the audit row', err));
}

/** Runs `body` as an audited call of `tool`. */
export async function audited<T>(caller: ApiCaller, tool: string, body: () => Promise<T>, failed?: (value: T) => string | undefined): Promise<T> {
  const t0 = performance.now();
  try {
    const value = await body();
    const problem = failed?.(value);
    await audit(caller, tool, performance.now() - t0, problem ? 'error' : 'ok', problem);
    return value;
  } catch (err) {
    await audit(caller, tool, performance.now() - t0, 'error', err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/** The caller of a request's Bearer key, or the error response to send instead. */
export async function authenticateRequest(request: Request): Promise<ApiCaller | Response> {
  try {
    return await authenticate(request.headers.get('authorization'), clientAddress(request.headers, getConfig().trustedProxies));
  } catch (err) {
    if (err instanceof ApiKeyError) return apiKeyErrorResponse(err);
    throw err;
  }
}

/** The JSON error response for an ApiKeyError (401 with a WWW-Authenticate challenge, 429 with Retry-After). */
function apiKeyErrorResponse(err: ApiKeyError): Response {
  const headers: Record<string, string> = {};
  if (err.status === 401) headers['www-authenticate'] = 'Bearer';
  if (err.retryAfterS) headers['retry-after'] = String(err.retryAfterS);
  return Response.json({ error: err.message, code: err.status === 429 ? 'rate_limited' : err.status === 401 ? 'unauthorized' : err.status === 403 ? 'forbidden' : 'bad_request' }, { status: err.status, headers });
}
