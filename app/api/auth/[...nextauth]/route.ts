import { NextRequest } from 'next/server';
import { handlers } from '@/lib/auth/auth';
import { throttleCredentialsCallback } from '@/lib/security/sign-in-throttle';
import { errorResponse } from '@/lib/server/http';
import { readBodyCapped } from '@/lib/security/request-guard';

export const { GET } = handlers;

/** Auth.js's form posts (sign-in, sign-out, OIDC, CSRF) are a few hundred bytes. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;
// Password guessing is throttled here, per account and per address (docs/security.md).
const throttledPost = throttleCredentialsCallback(handlers.POST);

/**
 * Signing in is how a caller becomes known, so this body cannot wait for an identity; it is capped
 * instead (413), read through the one capped reader, and handed on as a fresh request.
 */
export async function POST(request: NextRequest): Promise<Response> {
  let body: Buffer;
  try {
    body = await readBodyCapped(request, MAX_AUTH_BODY_BYTES);
  } catch (err) {
    return errorResponse(err);
  }
  return throttledPost(new NextRequest(request.url, { method: 'POST', headers: request.headers, body: new Uint8Array(body) }));
}
