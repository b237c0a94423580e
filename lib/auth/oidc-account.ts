/**
 * Which account an OpenID Connect sign-in is. Accounts are matched by email, so the email must be
 * one the provider verified: otherwise anyone who can put an address into their profile at the
 * provider (many let you type one) would sign in as the local account that has it. An unverified
 * email is refused outright, for new users too — a new account made from it would be matched by
 * that email at every later sign-in. New users join as members.
 */
import { createUser, findUserByEmail, type User } from '../store/users';
import { cleanName } from '../text/hygiene';

/** The claims of the provider's profile this needs (OpenID Connect Core, "standard claims"). */
export interface OidcProfile {
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/** Why an OpenID Connect sign-in is refused; Auth.js sends the person back to /signin. */
export class OidcAccountError extends Error {
  override name = 'OidcAccountError';
}

/** Some providers send the claim as the string "true". */
const verified = (claim: unknown) => claim === true || claim === 'true';

export async function accountForOidc(profile: OidcProfile | null | undefined): Promise<User> {
  const email = typeof profile?.email === 'string' ? cleanName(profile.email).toLowerCase() : '';
  if (!email) throw new OidcAccountError('The identity provider did not share an email address.');
  if (!verified(profile?.email_verified)) throw new OidcAccountError('The identity provider has not verified this email address.');
  const existing = await findUserByEmail(email);
  if (existing) return existing;
  const name = typeof profile?.name === 'string' ? cleanName(profile.name).slice(0, 120) : '';
  return createUser({ email, name: name || email, role: 'member' });
}
