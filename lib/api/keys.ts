/**
 * API keys: created and revoked by their owner on the settings page, presented as
 * `Authorization: Bearer mc_…` to the MCP endpoint and /api/v1. Only a SHA-256 of a key is
 * stored (a key is 256 random bits, so a fast hash is enough: nothing to brute-force); the key
 * itself is returned once, at creation. Each key has its own rate limit and cap on requests in
 * flight (as has its owner, over all their keys), and every call is audited with who, what, when
 * and how long — never the key. On Postgres the counts are shared by every server
 * (lib/security/rate-limit.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { actorFor } from '@/lib/auth/roles';
import { getConfig } from '@/lib/config';
import { clientAddress } from '@/lib/config/network';
import { FailureThrottle, type FailureRule } from '@/lib/security/failure-throttle';
import { InFlightLimiter, RateLimiter, type ReleaseSlot } from '@/lib/security/rate-limit';
import { findApiKeyByHash, insertApiKey, insertAudit, listApiKeys, revokeApiKey, touchApiKey, type ApiAuditRow } from '@/lib/store/api-keys';
import { cleanName } from '@/lib/text/hygiene';

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
  const clean = cleanName(name).slice(0, 80);
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

const limiters = globalThis as unknown as {
  __mcApiLimiter?: { perMin: number; limiter: RateLimiter };
  __mcApiInFlight?: { perKey: number; perOwner: number; key: InFlightLimiter; owner: InFlightLimiter };
};

function takeRate(keyId: string) {
  const perMin = getConfig().apiRatePerMin;
  if (limiters.__mcApiLimiter?.perMin !== perMin)
    limiters.__mcApiLimiter = { perMin, limiter: new RateLimiter({ limit: perMin, windowMs: 60_000 }, Date.now, { name: 'api:key' }) };
  return limiters.__mcApiLimiter.limiter.take(keyId);
}

function inFlightLimiters() {
  const { perKey, perOwner } = getConfig().apiInFlight;
  const current = limiters.__mcApiInFlight;
  if (current?.perKey === perKey && current.perOwner === perOwner) return current;
  // A limit changed (tests, a reload): new limiters; slots held under the old ones end as usual.
  return (limiters.__mcApiInFlight = {
    perKey,
    perOwner,
    key: new InFlightLimiter(perKey, { name: 'api:in-flight:key' }),
    owner: new InFlightLimiter(perOwner, { name: 'api:in-flight:owner' }),
  });
}

/** Seconds a caller refused for too many requests in flight is told to wait: answers take seconds. */
const IN_FLIGHT_RETRY_AFTER_S = 2;

/**
 * Runs `handle` while the caller holds an in-flight slot of its key and of its owner, or answers
 * 429 with Retry-After at once when either has as many requests running as allowed
 * (API_MAX_IN_FLIGHT_PER_KEY, API_MAX_IN_FLIGHT_PER_OWNER): one key cannot hold the server's
 * memory and CPU with a hundred concurrent questions, however many its rate limit allows.
 */
export async function withInFlightSlot(caller: ApiCaller, handle: () => Promise<Response>): Promise<Response> {
  const limits = inFlightLimiters();
  const slots: ReleaseSlot[] = [];
  try {
    const keySlot = await limits.key.acquire(caller.keyId);
    if (keySlot) slots.push(keySlot);
    const ownerSlot = keySlot && (await limits.owner.acquire(caller.ownerId));
    if (ownerSlot) slots.push(ownerSlot);
    if (!keySlot || !ownerSlot) {
      await audit(caller, 'auth', 0, 'refused', keySlot ? 'too many requests in flight for the owner' : 'too many requests in flight for the key');
      const which = keySlot ? `of this key’s owner (${limits.perOwner})` : `with this key (${limits.perKey})`;
      return apiKeyErrorResponse(
        new ApiKeyError(429, `Too many requests running at once ${which}. Wait for one to finish and try again.`, IN_FLIGHT_RETRY_AFTER_S),
      );
    }
    return await handle();
  } finally {
    await Promise.all(slots.map((release) => release()));
  }
}

/** Invalid keys (wrong, revoked, of a removed account) per client address: 30 a minute, then 429 with a growing lockout. */
export const INVALID_KEY_RULE: FailureRule = { failures: 30, windowMs: 60_000, maxLockMs: 15 * 60_000 };
const invalidKeys = globalThis as unknown as { __mcInvalidKeys?: FailureThrottle };
const invalidKeyThrottle = () => (invalidKeys.__mcInvalidKeys ??= new FailureThrottle(INVALID_KEY_RULE, 'api:invalid-keys'));

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
  const wait = await invalidKeyThrottle().retryAfterS(addressKey);
  if (wait) {
    await audit({ ownerId: UNKNOWN, keyId: UNKNOWN }, 'auth', 0, 'refused', `too many invalid keys from ${address}`);
    throw new ApiKeyError(429, `Too many invalid API keys from this address. Please wait ${wait} s and try again.`, wait);
  }
  /** A 401 for a key that does not work: audited with the address, and counted against it. */
  const invalid = async (caller: ApiCaller, why: string, message: string): Promise<never> => {
    await invalidKeyThrottle().fail(addressKey);
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
  const rate = await takeRate(row.id);
  if (!rate.ok) {
    await audit(caller, 'auth', 0, 'refused', 'rate limited');
    throw new ApiKeyError(429, `Too many calls with this key. Please wait ${rate.retryAfterS} s and try again.`, rate.retryAfterS);
  }
  touchSoon(row.id);
  return caller;
}

/** "Last used" is shown to the minute: a key's burst of calls writes it once, not once per call on the request path. */
const TOUCH_EVERY_MS = 60_000;
const touched = globalThis as unknown as { __mcKeysTouched?: Map<string, number> };

function touchSoon(keyId: string): void {
  const last = (touched.__mcKeysTouched ??= new Map());
  const now = Date.now();
  if (now - (last.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
  last.set(keyId, now);
  if (last.size > 10_000) for (const [k, t] of last) if (now - t >= TOUCH_EVERY_MS) last.delete(k);
  void touchApiKey(keyId).catch(() => undefined);
}

/** Records one call; a failed write is logged, never fatal to the call. */
async function audit(caller: ApiCaller, tool: string, ms: number, outcome: ApiAuditRow['outcome'], message?: string): Promise<void> {
  await insertAudit({ keyId: caller.keyId, ownerId: caller.ownerId, tool, ms: Math.round(ms), outcome, message }).catch((err) =>
    console.error('[api] could not write the audit row', err),
  );
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
  return Response.json(
    { error: err.message, code: err.status === 429 ? 'rate_limited' : err.status === 401 ? 'unauthorized' : err.status === 403 ? 'forbidden' : 'bad_request' },
    { status: err.status, headers },
  );
}
