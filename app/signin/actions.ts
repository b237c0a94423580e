'use server';
import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { signIn, signOut } from '@/lib/auth/auth';
import { rateLimit } from '@/lib/security/rate-limit';
import { signInAddress, signInFailed, signInRetryAfterS } from '@/lib/security/sign-in-throttle';

/** Only paths on this site: an open redirect after sign-in would be a phishing tool. */
const safeCallback = (v: FormDataEntryValue | null) => (typeof v === 'string' && /^\/(?!\/)[^\\]*$/.test(v) ? v : '/');

export async function signInWithPassword(formData: FormData) {
  const callbackUrl = safeCallback(formData.get('callbackUrl'));
  const back = (error: string) => redirect(`/signin?error=${error}&callbackUrl=${encodeURIComponent(callbackUrl)}`);
  const address = signInAddress(await headers());
  const email = formData.get('email');
  const account = typeof email === 'string' ? email : '';
  // Every attempt counts against the address's write limit; wrong passwords also lock the account
  // and the address out for a while (lib/security/sign-in-throttle.ts, the same as the route's).
  if (!(await rateLimit('write', `addr:${address}`, 'address')).ok || (await signInRetryAfterS(account, address, 'form'))) back('rate');
  try {
    await signIn('credentials', { email, password: formData.get('password'), redirectTo: callbackUrl });
  } catch (err) {
    if (err instanceof AuthError) {
      await signInFailed(account, address, 'form');
      back('credentials');
    }
    throw err; // the redirect on success is thrown too
  }
}

export async function signInWithOidc(formData: FormData) {
  await signIn('oidc', { redirectTo: safeCallback(formData.get('callbackUrl')) });
}

export async function signOutAction() {
  await signOut({ redirectTo: '/signin' });
}
