/**
 * The proxy's access step for page requests:
 * - local mode: a browser without a valid owner cookie gets one on its first page, so its API
 *   writes can later require the cookie (a cookieless script gets 401 and leaves no rows) — except
 *   on a shared chat (`/share/…`): a visitor who only follows a share link gets no identity, so
 *   their direct deletes are refused (401) like any cookieless request; "Continue in a
 *   new chat" makes them an owner (its action sets the cookie);
 * - sign-in mode: a page request without a valid Auth.js session is sent to /signin — and so is
 *   one whose signed token names an account that no longer exists, or an older session version
 *   (lib/auth/session-version.ts; one database read per page request, no cache: removing a user,
 *   changing their password or signing out ends their sessions at once; the role is read per request
 *   wherever it matters, so a demotion takes effect at once too);
 * - both modes: a write through a page (a server action's POST) sent from another site is refused
 *   (403), also when the browser sent no Origin but said `Sec-Fetch-Site: cross-site` — Next's
 *   own server-action check looks at Origin only.
 * Pages, actions and routes still check the identity themselves; this is not the only gate.
 */
import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';
import { authSecret, newOwnerId, ONE_YEAR_S, OWNER_COOKIE, signOwnerId, verifyOwnerCookie } from '../auth/owner-cookie';
import { sessionUser } from '../auth/session-version';
import { getConfig } from '../config';
import { assertSameOrigin, GuardError } from './request-guard';

/** Pages anyone may open in sign-in mode. */
const PUBLIC_PATHS = /^\/(signin)(\/|$)/;
/** A shared chat, read-only: opening it (or its citations' previews) mints no owner cookie locally. */
const SHARED_CHAT = /^\/share(\/|$)/;

const isHttps = (request: NextRequest) => (request.headers.get('x-forwarded-proto') ?? request.nextUrl.protocol.replace(':', '')) === 'https';

export type AccessStep = { redirect: NextResponse } | { refuse: Response } | { mintedCookie?: string };

const sessionCookie = (secure: boolean) => (secure ? '__Secure-authjs.session-token' : 'authjs.session-token');

export async function accessStep(request: NextRequest): Promise<AccessStep> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    try {
      assertSameOrigin(request);
    } catch (err) {
      if (err instanceof GuardError) return { refuse: err.toResponse() };
      throw err;
    }
  }
  if (getConfig().auth.signInRequired) {
    if (PUBLIC_PATHS.test(request.nextUrl.pathname)) return {};
    const secure = isHttps(request);
    const token = await getToken({ req: request, secret: authSecret(), secureCookie: secure, salt: sessionCookie(secure) });
    if (await sessionUser(token)) return {};
    const url = new URL('/signin', request.url);
    url.searchParams.set('callbackUrl', request.nextUrl.pathname + request.nextUrl.search);
    const redirect = NextResponse.redirect(url);
    // A signed token of a removed account or an ended session: the cookie goes too, so /signin offers to sign in again.
    if (token?.sub) redirect.cookies.set(sessionCookie(secure), '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'lax', secure });
    return { redirect };
  }
  if (verifyOwnerCookie(request.cookies.get(OWNER_COOKIE)?.value) || SHARED_CHAT.test(request.nextUrl.pathname)) return {};
  const value = signOwnerId(newOwnerId());
  request.cookies.set(OWNER_COOKIE, value); // the page rendering now sees it too
  return { mintedCookie: value };
}

export function setOwnerCookie(response: NextResponse, request: NextRequest, value: string): void {
  response.cookies.set(OWNER_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: isHttps(request), path: '/', maxAge: ONE_YEAR_S });
}
