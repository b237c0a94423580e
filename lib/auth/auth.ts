/**
 * Auth.js (next-auth v5) for the networked mode: a credentials provider over the `users` table
 * (scrypt hashes) and, when AUTH_OIDC_* is set, an OpenID Connect provider whose users become
 * members (lib/auth/oidc-account.ts: only a verified email). Sessions are JWTs in an httpOnly
 * cookie carrying the account's session version (lib/auth/session-version.ts); the user's id is
 * the owner id of their chats and manuals. On loopback (the local single-user mode) none of this is consulted.
 */
import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getConfig } from '../config';
import { endSessions, getUser } from '../store/users';
import { checkCredentials } from './credentials';
import { accountForOidc } from './oidc-account';
import { authSecret } from './owner-cookie';
import { sessionClaimsFor, sessionUser } from './session-version';

function authConfig(): NextAuthConfig {
  const { oidc } = getConfig().auth;
  return {
    // Derived from the app's own secret (SESSION_SECRET or DATA_DIR/session-secret): nothing to set up.
    secret: authSecret(),
    trustHost: true,
    session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
    pages: { signIn: '/signin' },
    providers: [
      Credentials({
        credentials: { email: { label: 'Name or email' }, password: { label: 'Password', type: 'password' } },
        authorize: async (raw) => {
          const email = typeof raw?.email === 'string' ? raw.email.slice(0, 320) : '';
          const password = typeof raw?.password === 'string' ? raw.password.slice(0, 1024) : '';
          if (!email || !password) return null;
          return checkCredentials(email, password);
        },
      }),
      ...(oidc ? [{ id: 'oidc', name: oidc.name, type: 'oidc' as const, issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret }] : []),
    ],
    callbacks: {
      async jwt({ token, user, account, profile }) {
        if (account?.provider === 'oidc') return { ...token, ...sessionClaimsFor(await accountForOidc(profile)) };
        if (user?.id) {
          const signedIn = await getUser(user.id);
          return signedIn ? { ...token, ...sessionClaimsFor(signedIn) } : null;
        }
        // A session ends with its account and with a newer session version (a password change, a
        // sign-out): auth() answers null at once, as the proxy redirects the pages.
        return (await sessionUser(token)) ? token : null;
      },
      async session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    events: {
      // Signing out ends every session of the account, so a copy of this cookie is worth nothing.
      async signOut(message) {
        const token = 'token' in message ? message.token : null;
        if (await sessionUser(token)) await endSessions(token!.sub!);
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
