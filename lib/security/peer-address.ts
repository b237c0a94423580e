/**
 * The socket address, where the rate limits can see it. Next's server writes the peer into
 * X-Forwarded-For only when the request has none (`??=` in base-server), and route handlers and
 * the proxy get a web Request with no socket: a client that sends its own X-Forwarded-For would
 * choose its own per-address bucket, and with nothing in front of the app nobody would stop it.
 *
 * So the Node server appends the socket address to X-Forwarded-For before Next sees the request,
 * as every reverse proxy does (`proxy_add_x_forwarded_for`): the last entry is always the peer,
 * and `clientAddress` (lib/config/network.ts) reads the entry MC_TRUSTED_PROXIES places left of it.
 * It runs from the server's request hook (request-hooks.ts).
 */
import type http from 'node:http';

/** Appends `socket.remoteAddress` to the request's X-Forwarded-For (creates the header when absent). */
export function appendPeerAddress(req: http.IncomingMessage): void {
  const peer = req.socket?.remoteAddress;
  if (!peer) return;
  const sent = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(sent) ? sent.join(', ') : (sent ?? '')).trim();
  req.headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer;
}
