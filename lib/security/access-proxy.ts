/**
 * The proxy's access step for page requests:
 * - local mode: a browser without a valid owner cookie gets one on its first page, so its API
 *   writes can later require the cookie (a cookieless script gets 401 and leaves no rows);
 * - sign-in mode: a page request without a valid Auth.js session is sent to /signin.
 * Pages, actions and routes still check the identity themselves; this is not the only gate.
 */
import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';
import { authSecret, newOwnerId, ONE_YEAR_S, OWNER_COOKIE, signOwnerId, verifyOwnerCookie } from '../auth/owner-cookie';
import { getConfig } from '../config';

/** Pages anyone may open in sign-in mode. */
const PUBLIC_PATHS = /^\/(signin)(\/|$)/;

const isHttps = (request: NextRequest) => (request.headers.get('x-forwarded-proto') ?? request.nextUrl.protocol.replace(':', '')) === 'https';

export type AccessStep = { redirect: NextResponse } | { mintedCookie?: string };

export async function accessStep(request: NextRequest): Promise<AccessStep> {
  if (getConfig().auth.signInRequired) {
    if (PUBLIC_PATHS.test(request.nextUrl.pathname)) return {};
    const secure = isHttps(request);
    const token = await getToken({ req: request, secret: authSecret(), secureCookie: secure, salt: secure ? '__Secure-authjs.session-token' : 'authjs.session-token' });
    if (token?.sub) return {};
    const url = new URL('/signin', request.url);
    url.searchParams.set('callbackUrl', request.nextUrl.pathname + request.nextUrl.search);
    return { redirect: NextResponse.redirect(url) };
  }
  if (verifyOwnerCookie(request.cookies.get(OWNER_COOKIE)?.value)) return {};
  const value = signOwnerId(newOwnerId());
  request.cookies.set(OWNER_COOKIE, value); // the page rendering now sees it too
  return { mintedCookie: value };
}

export function setOwnerCookie(response: NextResponse, request: NextRequest, value: string): void {
  response.cookies.set(OWNER_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: isHttps(request), path: '/', maxAge: ONE_YEAR_S });
}
