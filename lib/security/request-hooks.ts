/**
 * What every request to this process's HTTP servers passes before Next sees it: the Host
 * allow-list (allowed-hosts.ts), then the peer address (peer-address.ts). Installed once per
 * process from instrumentation.ts (Node runtime); it wraps the `request` and `upgrade` events of
 * every http.Server of the process (only Next's own serves here).
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { hostRefusal, type HostPolicy } from './allowed-hosts';
import { appendPeerAddress } from './peer-address';

const state = globalThis as unknown as { __mcRequestHooks?: boolean };

const header = (req: http.IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const refusalOf = (req: http.IncomingMessage, policy: HostPolicy) =>
  hostRefusal({ host: header(req, 'host'), forwardedHost: header(req, 'x-forwarded-host') }, policy);

/** 421 Misdirected Request: this server is not the one for that name (400 when no name was sent). */
function refuse(res: http.ServerResponse, reason: string, hasHost: boolean): void {
  const body = JSON.stringify({ error: reason, code: 'host_not_allowed' });
  res.writeHead(hasHost ? 421 : 400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/** Makes every http.Server of this process refuse unknown hosts and append the peer address. */
export function installRequestHooks(policy: () => HostPolicy): void {
  if (state.__mcRequestHooks) return;
  state.__mcRequestHooks = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request' || event === 'upgrade') {
      const req = args[0] as http.IncomingMessage;
      const refusal = refusalOf(req, policy());
      if (refusal) {
        if (event === 'request') refuse(args[1] as http.ServerResponse, refusal, Boolean(req.headers.host));
        else (args[1] as Duplex).destroy();
        return true;
      }
      appendPeerAddress(req);
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}
