/**
 * Auth.js (next-auth v5) for the networked mode: a credentials provider over the `users` table
 * (scrypt hashes) and, when AUTH_OIDC_* is set, an OpenID Connect provider whose users become
 * members. Sessions are JWTs in an httpOnly cookie; the user's id is the owner id of their chats
 * and manuals. On loopback (the local single-user mode) none of this is consulted.
 */
import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getConfig } from '../config';
import { createUser, findUserByEmail, getUser } from '../store/users';
import { checkCredentials } from './credentials';
import { authSecret } from './owner-cookie';

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
      ...(oidc
        ? [{ id: 'oidc', name: oidc.name, type: 'oidc' as const, issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret }]
        : []),
    ],
    callbacks: {
      async jwt({ token, user, account, profile }) {
        if (account?.provider === 'oidc') {
          // Single sign-on users are matched by email; new ones join as members.
          const email = String(profile?.email ?? token.email ?? '').toLowerCase();
          if (!email) throw new Error('The identity provider did not share an email address.');
          const existing = (await findUserByEmail(email)) ?? (await createUser({ email, name: String(profile?.name ?? email), role: 'member' }));
          token.sub = existing.id;
        } else if (user?.id) {
          token.sub = user.id;
        } else if (token.sub && !(await getUser(token.sub))) {
          // A session ends with its account: auth() answers null for a removed user at once (one
          // read per check, no cache), as the proxy redirects their pages (lib/security/access-proxy.ts).
          return null;
        }
        return token;
      },
      async session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
