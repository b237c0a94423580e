/** Signing and verifying the owner cookie (no Next.js request APIs: the proxy uses it too). */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ownerSecret } from './owner-secret';

export const OWNER_COOKIE = 'mc_owner';
export const ONE_YEAR_S = 365 * 24 * 3600;

export function signOwnerId(id: string, secret = ownerSecret()): string {
  const mac = createHmac('sha256', secret).update(id).digest('base64url');
  return `${id}.${mac}`;
}

export function verifyOwnerCookie(value: string | undefined, secret = ownerSecret()): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const id = value.slice(0, dot);
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(id)) return null;
  const expected = Buffer.from(signOwnerId(id, secret));
  const given = Buffer.from(value);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

export const newOwnerId = () => randomBytes(16).toString('base64url');

/** Auth.js's signing secret, derived from the app's own (SESSION_SECRET or DATA_DIR/session-secret). */
export function authSecret(): string {
  return createHmac('sha256', ownerSecret()).update('authjs').digest('base64url');
}
