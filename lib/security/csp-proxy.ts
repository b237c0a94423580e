import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy } from './headers.mjs';

/** 128 random bits, base64: unguessable and fresh for every request. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Gives each page request its own nonce. The CSP goes on the request too: Next reads the nonce from
 * it and applies it to its inline bootstrap scripts; `x-nonce` is for the layout's own script.
 */
export function cspProxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = contentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === 'development' });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  return response;
}
