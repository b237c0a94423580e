'use server';
import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { signIn, signOut } from '@/lib/auth/auth';
import { clientAddress } from '@/lib/config/network';
import { getConfig } from '@/lib/config';
import { rateLimit } from '@/lib/security/rate-limit';

/** Only paths on this site: an open redirect after sign-in would be a phishing tool. */
const safeCallback = (v: FormDataEntryValue | null) => (typeof v === 'string' && /^\/(?!\/)[^\\]*$/.test(v) ? v : '/');

export async function signInWithPassword(formData: FormData) {
  const callbackUrl = safeCallback(formData.get('callbackUrl'));
  const back = (error: string) => redirect(`/signin?error=${error}&callbackUrl=${encodeURIComponent(callbackUrl)}`);
  // Password guessing: the per-address write limit applies to every attempt.
  if (!(await rateLimit('write', `addr:${clientAddress(await headers(), getConfig().trustedProxies)}`, 'address')).ok) back('rate');
  try {
    await signIn('credentials', { email: formData.get('email'), password: formData.get('password'), redirectTo: callbackUrl });
  } catch (err) {
    if (err instanceof AuthError) back('credentials');
    throw err; // the redirect on success is thrown too
  }
}

export async function signInWithOidc(formData: FormData) {
  await signIn('oidc', { redirectTo: safeCallback(formData.get('callbackUrl')) });
}

export async function signOutAction() {
  await signOut({ redirectTo: '/signin' });
}
