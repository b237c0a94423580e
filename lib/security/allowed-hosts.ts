/**
 * The Host allow-list: the app answers only for names it knows, in every mode. A web page on
 * another site can point its own host name at this machine (DNS rebinding); the browser then sends
 * that name as Host and treats the app as the page's own origin, so Origin checks pass. Refusing
 * unknown names before Next sees the request means such a page gets no cookie, no page and no API.
 *
 * Known names: loopback names and addresses, the addresses of this machine's interfaces (a page
 * opened by IP address was typed or linked by the user, not renamed by DNS), PUBLIC_URL's host, and
 * MC_ALLOWED_HOSTS. A name colleagues use on a network goes into PUBLIC_URL or MC_ALLOWED_HOSTS.
 */
import { isIP } from 'node:net';
import os from 'node:os';
import { isLoopbackHost } from '../config/network';

export interface HostPolicy {
  publicUrl?: string;
  allowedHosts: readonly string[];
}

/** The host name of a Host header value (no port, no IPv6 brackets, lower case); null when malformed. */
export function hostName(header: string): string | null {
  if (!header || /[\s/?#@\\]/.test(header)) return null;
  try {
    return new URL(`http://${header}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
}

function isThisMachinesAddress(name: string): boolean {
  if (!isIP(name)) return false;
  return Object.values(os.networkInterfaces()).some((addresses) => addresses?.some((a) => a.address.toLowerCase() === name));
}

/** True when the app may answer a request whose Host (or X-Forwarded-Host) is `header`. */
export function isAllowedHost(header: string, policy: HostPolicy): boolean {
  const name = hostName(header);
  if (!name) return false;
  if (isLoopbackHost(name) || name.endsWith('.localhost')) return true;
  if (policy.publicUrl && hostName(new URL(policy.publicUrl).host) === name) return true;
  if (policy.allowedHosts.includes(name)) return true;
  return isThisMachinesAddress(name);
}

/** Why a request is refused, or null when its Host and X-Forwarded-Host are both known names. */
export function hostRefusal(headers: { host?: string; forwardedHost?: string }, policy: HostPolicy): string | null {
  if (!headers.host) return 'The request names no host.';
  const forwarded = headers.forwardedHost?.split(',').map((h) => h.trim()) ?? [];
  for (const header of [headers.host, ...forwarded]) {
    if (!isAllowedHost(header, policy)) {
      const shown = (hostName(header) ?? header).slice(0, 100);
      return `This server does not answer for the host "${shown}". Add it to PUBLIC_URL or MC_ALLOWED_HOSTS to reach the app by that name.`;
    }
  }
  return null;
}
