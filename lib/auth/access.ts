/**
 * Who may do what. Two modes, chosen by where the app listens (config.auth.signInRequired):
 * - local (loopback, nothing in front): only this machine reaches the app, and its user is the
 *   admin. A browser gets its owner cookie on its first page (proxy.ts); API writes without one
 *   are refused (401), so scripted requests leave no rows behind.
 * - network (HOST not loopback, a trusted proxy, or MC_AUTH=signin): everyone signs in (Auth.js,
 *   lib/auth/auth.ts); roles admin and member. Members upload and delete their own manuals;
 *   admins manage every manual and every user.
 */
import { redirect } from 'next/navigation';
import { getConfig } from '../config';
import { currentOwnerId } from './owner';
import { AccessError, type Actor, actorFor } from './roles';

export { AccessError, type Actor };

async function currentActor(): Promise<Actor | null> {
  return actorFor(await currentOwnerId());
}

/** The actor of this request, or a 401 explaining how to get one. Never mints an identity. */
export async function requireActor(): Promise<Actor> {
  const actor = await currentActor();
  if (actor) return actor;
  throw new AccessError(
    401,
    getConfig().auth.signInRequired ? 'Please sign in first.' : 'This request has no session cookie: open the app in a browser first (any page sets it).',
  );
}

export async function requireAdmin(): Promise<Actor> {
  const actor = await requireActor();
  if (actor.role !== 'admin') throw new AccessError(403, 'Only an administrator can do this.');
  return actor;
}

/** For reads: where sign-in is required, the signed-in actor (else 401); locally, whoever asks (maybe no one). */
export async function requireReader(): Promise<Actor | null> {
  return getConfig().auth.signInRequired ? requireActor() : currentActor();
}

/**
 * For pages: requireReader, but a page without the session sign-in requires redirects to /signin
 * (and back to `path` after), as the proxy does: a request that skipped the proxy is refused too.
 */
export async function readerOrSignIn(path: string): Promise<Actor | null> {
  try {
    return await requireReader();
  } catch (err) {
    if (err instanceof AccessError && err.status === 401) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
    throw err;
  }
}
