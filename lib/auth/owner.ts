/**
 * The anonymous owner: a random id in a signed, httpOnly, SameSite cookie. Every action and route
 * that reads or changes someone's data resolves the owner here and checks it.
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import { cookies, headers } from 'next/headers';
import { getConfig } from '../config';
import { auth } from './auth';
import { OWNER_COOKIE, ONE_YEAR_S, signOwnerId, verifyOwnerCookie } from './owner-cookie';
import { SignInRequiredError } from './roles';

export { signOwnerId, verifyOwnerCookie };

/**
 * The current owner id, or null when the request carries no valid cookie (read-only contexts).
 * Where sign-in is required (lib/auth/access.ts) it is the signed-in user's id instead.
 */
export async function currentOwnerId(): Promise<string | null> {
  if (getConfig().auth.signInRequired) return (await auth())?.user?.id ?? null;
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
  if (getConfig().auth.signInRequired) throw new SignInRequiredError();
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
