/**
 * Where the app listens and who is asking: loopback detection (the local single-user mode) and the
 * client address for per-address rate limits, honouring only as many X-Forwarded-For entries as
 * there are trusted proxies (MC_TRUSTED_PROXIES).
 */

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h.startsWith('127.') || h === '::ffff:127.0.0.1';
}

/**
 * The client address of a request. Next's server fills X-Forwarded-For with the socket address
 * when the request has none, so with no trusted proxy the last entry is the peer (a client that
 * sends its own header only chooses its rate-limit bucket; it still needs a cookie or a sign-in).
 * Behind N trusted proxies, each appends the address it saw: the entry N from the right is the
 * client as the outermost trusted proxy saw it.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!chain.length) return 'unknown';
  return chain[Math.max(0, chain.length - 1 - trustedProxies)];
}
