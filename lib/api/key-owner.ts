/**
 * Whose API keys the settings page shows, creates and revokes: the request's identity — the
 * anonymous owner cookie on loopback (where its holder is the admin), the signed-in user where
 * sign-in is required. A key acts as its creator, so on a network only an administrator creates
 * one (lib/api/keys.ts refuses a key whose creator no longer has an account).
 */
import 'server-only';
import { AccessError, requireActor } from '@/lib/auth/access';
import { currentOwnerId, ensureOwnerId } from '@/lib/auth/owner';
import { getConfig } from '@/lib/config';

/** The key owner of this request, or null (read-only contexts without an identity yet). */
export function currentKeyOwner(): Promise<string | null> {
  return currentOwnerId();
}

/** Who may create keys here; null when anyone with an identity may (loopback). */
export function keyCreationRefusal(role: string | undefined): string | null {
  if (!getConfig().auth.signInRequired || role === 'admin') return null;
  return 'Only an administrator can create API keys: a key acts with its creator’s rights.';
}

/** The creator of a new key (actions only): locally the cookie owner, made when missing; on a network an admin. */
export async function keyCreator(): Promise<string> {
  if (!getConfig().auth.signInRequired) return ensureOwnerId();
  const actor = await requireActor();
  const refusal = keyCreationRefusal(actor.role);
  if (refusal) throw new AccessError(403, refusal);
  return actor.id;
}

/** The owner whose keys a revoke may touch (actions only): anyone revokes their own keys. */
export function ensureKeyOwner(): Promise<string> {
  return ensureOwnerId();
}
