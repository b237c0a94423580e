/**
 * Security headers, shared by next.config.mjs (every response) and proxy.ts (pages, with a nonce).
 * Plain .mjs so next.config.mjs can import it; types in headers.d.mts.
 *
 * Everything is served from this origin: no third-party scripts, fonts, images or connections.
 */

/**
 * The Content-Security-Policy.
 * - With a nonce (pages, set per request by proxy.ts): only scripts carrying the nonce run, plus what
 *   they load ('strict-dynamic': Next's chunks). Next reads the nonce from the request's CSP header
 *   and puts it on its own bootstrap scripts; the layout puts it on the theme script.
 * - Without one (static files, API, page images: not documents, or documents that must not run
 *   inline code): same-origin scripts only.
 * Styles: <style> and <link> elements need 'self' or the nonce; style *attributes* stay allowed
 * ('style-src-attr'): components size page images, highlight boxes and progress bars with inline
 * style attributes rendered on the server, which no nonce can cover. An injected style attribute
 * cannot run code or fetch from another origin (img-src/font-src are 'self').
 * Dev mode: React needs eval for its debugging features, and dev injects <style> without a nonce.
 *
 * @param {{ nonce?: string, dev?: boolean }} [options]
 */
export function contentSecurityPolicy({ nonce, dev = false } = {}) {
  const n = nonce ? ` 'nonce-${nonce}'` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${n}${nonce ? " 'strict-dynamic'" : ''}${dev ? " 'unsafe-eval'" : ''}`,
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self'${n}`,
    ...(dev ? [] : ["style-src-attr 'unsafe-inline'"]),
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers for every response (read by next.config.mjs); proxy.ts replaces the CSP on pages. @public */
export function securityHeaders({ dev = false } = {}) {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy({ dev }) },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'Referrer-Policy', value: 'same-origin' },
    { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  ];
}
