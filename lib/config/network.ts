/**
 * Where the app listens and who is asking: loopback detection (the local single-user mode) and the
 * client address for per-address rate limits, honouring only as many X-Forwarded-For entries as
 * there are trusted proxies (MC_TRUSTED_PROXIES, or TRUSTED_PROXIES).
 */

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1, localhost (never a DNS name that merely starts with 127.). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (h === 'localhost') return true;
  return h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The client address of a request. The app's Node server appends the socket address to
 * X-Forwarded-For before Next sees a request (lib/security/peer-address.ts, like any reverse
 * proxy), so the last entry is always the peer: with no trusted proxy that is the client, whatever
 * header it sent. Behind N trusted proxies, each appends the address it saw: the entry N places
 * left of the peer is the client as the outermost trusted proxy saw it; anything further left was
 * written by the client and is never used. (Without the server hook — a test, another server —
 * Next fills the header with the peer only when the request has none.)
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!chain.length) return 'unknown';
  return chain[Math.max(0, chain.length - 1 - trustedProxies)];
}
