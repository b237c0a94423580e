/**
 * Guards every state-changing API route runs before any work: same-origin check (the policy
 * Next.js applies to server actions), a per-address rate limit that holds with or without a
 * cookie, and size-capped JSON bodies.
 */
import { clientAddress } from '../config/network';
import { getConfig } from '../config';
import { rateLimit, tooManyRequests } from './rate-limit';

export class GuardError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 413 | 415 | 429,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  toResponse(): Response {
    return Response.json({ error: this.message, code: `guard_${this.status}` }, { status: this.status, headers: this.headers });
  }
}

/**
 * Refuses a write that a browser sent from another site: its Origin (or, failing that, its
 * Sec-Fetch-Site) must name this host. Requests without either come from non-browser clients,
 * which carry no ambient cookie of a victim, so they pass (and still need a cookie or sign-in).
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (origin && origin !== 'null') {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new GuardError(403, 'This request came from another site and was refused.');
    }
    if (!host || originHost.toLowerCase() !== host.toLowerCase()) throw new GuardError(403, 'This request came from another site and was refused.');
    return;
  }
  if (origin === 'null') throw new GuardError(403, 'This request came from another site and was refused.');
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') throw new GuardError(403, 'This request came from another site and was refused.');
}

/** Per-address limit on writes, counted before the cookie is looked at (cookieless floods hit it). */
function limitByAddress(request: Request, kind: 'ask' | 'upload' | 'write'): void {
  const address = clientAddress(request.headers, getConfig().trustedProxies);
  const allowed = rateLimit(kind === 'write' ? 'write' : kind, `addr:${address}`, 'address');
  if (!allowed.ok) {
    const r = tooManyRequests(kind === 'ask' ? 'questions' : kind === 'upload' ? 'uploads' : 'requests', allowed.retryAfterS);
    throw new GuardError(429, `Too many ${kind === 'ask' ? 'questions' : kind === 'upload' ? 'uploads' : 'requests'} from this address. Please wait ${allowed.retryAfterS} s and try again.`, {
      'retry-after': r.headers.get('retry-after') ?? '1',
    });
  }
}

/** Largest JSON body a route reads: a question is ≤ 4,000 characters; a password ≤ 1,024. */
const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * The request's JSON body, read as a stream and refused past `maxBytes` (413) before it is all in
 * memory; null when it is not JSON. The Content-Length is checked first when the client sent one.
 */
export async function readJsonCapped(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const tooBig = () => new GuardError(413, `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`);
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) throw tooBig();
  if (!request.body) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

/** Origin check then per-address limit: the common head of every write route. */
export function guardWrite(request: Request, kind: 'ask' | 'upload' | 'write'): void {
  assertSameOrigin(request);
  limitByAddress(request, kind);
}
