/**
 * Next.js proxy (formerly middleware): a per-request CSP nonce for every page, and the access step
 * (owner cookie locally, sign-in redirect on a network, cross-site server actions refused). The logic lives in lib/security/; only the
 * matcher must stay here (Next reads it statically).
 */
import type { NextRequest } from 'next/server';
import { accessStep, setOwnerCookie } from './lib/security/access-proxy';
import { cspProxy } from './lib/security/csp-proxy';

export async function proxy(request: NextRequest) {
  const access = await accessStep(request);
  if ('redirect' in access) return access.redirect;
  if ('refuse' in access) return access.refuse;
  const response = cspProxy(request);
  if (access.mintedCookie) setOwnerCookie(response, request, access.mintedCookie);
  return response;
}

export const config = {
  // Not for responses that are never HTML pages (speed: page thumbnails come by the dozen): build
  // output and dev resources (_next/, incl. the HMR socket), API routes, page images, the icon.
  // They keep the nonce-less CSP of next.config.mjs and check access themselves.
  matcher: ['/((?!_next/|api/|icon\\.svg|favicon\\.ico|manuals/[^/]+/pages/[^/]+/(?:image|thumb|zoom)$).*)'],
};
