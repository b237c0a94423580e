/**
 * Guards every state-changing API route runs before any work: same-origin check (the policy
 * Next.js applies to server actions), a per-address rate limit that holds with or without a
 * cookie, and size-capped JSON bodies.
 */
import { clientAddress } from '../config/network';
import { getConfig } from '../config';
import { rateLimit } from './rate-limit';

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
async function limitByAddress(request: Request, kind: 'ask' | 'upload' | 'write'): Promise<void> {
  const address = clientAddress(request.headers, getConfig().trustedProxies);
  const allowed = await rateLimit(kind === 'write' ? 'write' : kind, `addr:${address}`, 'address');
  if (!allowed.ok) {
    const what = kind === 'ask' ? 'questions' : kind === 'upload' ? 'uploads' : 'requests';
    throw new GuardError(429, `Too many ${what} from this address. Please wait ${allowed.retryAfterS} s and try again.`, {
      'retry-after': String(allowed.retryAfterS),
    });
  }
}

/** Largest JSON body a route reads by default: a question is ≤ 4,000 characters; a password ≤ 1,024. */
const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * The request's body as bytes, read as a stream and refused past `maxBytes` (413) before it is all
 * in memory; the Content-Length is checked first when the client sent one, so a declared 100 MB
 * body is refused without reading a byte of it. Every route reads its body through this (or
 * readJsonCapped), after it has checked who is asking: eslint forbids `request.json()` and friends.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Buffer> {
  const tooBig = () =>
    new GuardError(
      413,
      `The request body is larger than ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : `${Math.round(maxBytes / 1024)} KB`}.`,
    );
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) throw tooBig();
  if (!request.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

/** The request's JSON body through readBodyCapped (413 past `maxBytes`); null when it is not JSON. */
export async function readJsonCapped(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyCapped(request, maxBytes);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}

/** Origin check then per-address limit: the common head of every write route. */
export async function guardWrite(request: Request, kind: 'ask' | 'upload' | 'write'): Promise<void> {
  assertSameOrigin(request);
  await limitByAddress(request, kind);
}
