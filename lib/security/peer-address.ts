/**
 * The socket address, where the rate limits can see it. Next's server writes the peer into
 * X-Forwarded-For only when the request has none (`??=` in base-server), and route handlers and
 * the proxy get a web Request with no socket: a client that sends its own X-Forwarded-For would
 * choose its own per-address bucket, and with nothing in front of the app nobody would stop it.
 *
 * So the Node server appends the socket address to X-Forwarded-For before Next sees the request,
 * as every reverse proxy does (`proxy_add_x_forwarded_for`): the last entry is always the peer,
 * and `clientAddress` (lib/config/network.ts) reads the entry MC_TRUSTED_PROXIES places left of it.
 * Installed once per process from instrumentation.ts (Node runtime); it wraps the `request` event
 * of every http.Server of the process (only Next's own serves here).
 */
import http from 'node:http';
import type { Socket } from 'node:net';

const state = globalThis as unknown as { __mcPeerAddress?: boolean };

/** Appends `socket.remoteAddress` to the request's X-Forwarded-For (creates the header when absent). */
function appendPeerAddress(req: http.IncomingMessage, socket: Socket | undefined = req.socket): void {
  const peer = socket?.remoteAddress;
  if (!peer) return;
  const sent = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(sent) ? sent.join(', ') : (sent ?? '')).trim();
  req.headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer;
}

/** Makes every http.Server of this process append the peer address before its handlers run. */
export function installPeerAddress(): void {
  if (state.__mcPeerAddress) return;
  state.__mcPeerAddress = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') appendPeerAddress(args[0] as http.IncomingMessage);
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}
