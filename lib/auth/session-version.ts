/**
 * A session is valid while its account exists and the account's session version is the one the
 * token was issued with. A password change (by an admin, the CLI, or MC_ADMIN_PASSWORD) and a
 * sign-out raise the version (lib/store/users.ts), so every token issued before — a copied cookie,
 * another browser — stops working on its next request. Auth.js's `jwt` callback (lib/auth/auth.ts)
 * and the proxy (lib/security/access-proxy.ts) both ask here: one database read, no cache.
 */
import { getUser, type User } from '../store/users';

/** What a session token carries for this check. */
export interface SessionClaims {
  sub?: string;
  sessionVersion?: unknown;
}

/** The token's claims for a user just signed in. */
export function sessionClaimsFor(user: Pick<User, 'id' | 'sessionVersion'>): Required<SessionClaims> {
  return { sub: user.id, sessionVersion: user.sessionVersion };
}

/** The account behind a token, or undefined when it is gone or the token predates its session version. */
export async function sessionUser(token: SessionClaims | null | undefined): Promise<User | undefined> {
  if (!token?.sub) return undefined;
  const user = await getUser(token.sub);
  return user && token.sessionVersion === user.sessionVersion ? user : undefined;
}
