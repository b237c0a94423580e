/**
 * The anonymous owner: a random id in a signed, httpOnly, SameSite cookie. Every action and route
 * that reads or changes someone's data resolves the owner here and checks it.
 */
import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cookies, headers } from 'next/headers';
import { ensureDataDir } from '../data-dir';
import { getConfig } from '../providers/config';

export const OWNER_COOKIE = 'mc_owner';
const ONE_YEAR_S = 365 * 24 * 3600;

let cachedSecret: { dir: string; secret: string } | undefined;

/** SESSION_SECRET, or a random secret generated once into DATA_DIR (0600) so restarts keep owners. */
export function ownerSecret(): string {
  const config = getConfig();
  if (config.sessionSecret) return config.sessionSecret;
  if (cachedSecret?.dir === config.dataDir) return cachedSecret.secret;
  const file = path.join(ensureDataDir(), 'session-secret');
  let secret: string;
  try {
    secret = fs.readFileSync(file, 'utf8').trim();
  } catch {
    secret = randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    } catch {
      secret = fs.readFileSync(file, 'utf8').trim(); // another process won the race
    }
  }
  cachedSecret = { dir: config.dataDir, secret };
  return secret;
}

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

/** The current owner id, or null when the request carries no valid cookie (read-only contexts). */
export async function currentOwnerId(): Promise<string | null> {
  const jar = await cookies();
  return verifyOwnerCookie(jar.get(OWNER_COOKIE)?.value);
}

/**
 * The current owner id, creating the cookie when missing. Only callable where cookies may be set
 * (server actions and route handlers).
 */
export async function ensureOwnerId(): Promise<string> {
  const existing = await currentOwnerId();
  if (existing) return existing;
  const id = randomBytes(16).toString('base64url');
  const jar = await cookies();
  // Secure when served over HTTPS (directly or behind a proxy); plain http on localhost still works.
  const proto = (await headers()).get('x-forwarded-proto');
  jar.set(OWNER_COOKIE, signOwnerId(id), {
    httpOnly: true,
    sameSite: 'lax',
    secure: proto === 'https',
    path: '/',
    maxAge: ONE_YEAR_S,
  });
  return id;
}
