/**
 * Next.js proxy (formerly middleware): a per-request CSP nonce for every page. The logic lives in
 * lib/security/csp-proxy.ts; only the matcher must stay here (Next reads it statically).
 */
import type { NextRequest } from 'next/server';
import { cspProxy } from './lib/security/csp-proxy';

export function proxy(request: NextRequest) {
  return cspProxy(request);
}

export const config = {
  // Not for responses that are never HTML pages (speed: page thumbnails come by the dozen): build
  // output and dev resources (_next/, incl. the HMR socket), API routes, page images, the icon.
  // They keep the nonce-less CSP of next.config.mjs.
  matcher: ['/((?!_next/|api/|icon\\.svg|favicon\\.ico|manuals/[^/]+/pages/[^/]+/(?:image|thumb|zoom)$).*)'],
};
