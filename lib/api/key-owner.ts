/**
 * Whose API keys the settings page shows and creates: today the web UI's anonymous owner (the
 * signed cookie of lib/auth/owner). The one place to switch key ownership to signed-in user ids.
 */
import 'server-only';
import { currentOwnerId, ensureOwnerId } from '@/lib/auth/owner';

/** The key owner of this request, or null (read-only contexts without an identity yet). */
export function currentKeyOwner(): Promise<string | null> {
  return currentOwnerId();
}

/** The key owner of this request, creating the identity when missing (actions only). */
export function ensureKeyOwner(): Promise<string> {
  return ensureOwnerId();
}
