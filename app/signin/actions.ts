'use server';
import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { signIn, signOut } from '@/lib/auth/auth';
import { rateLimit } from '@/lib/security/rate-limit';
import { beginSignIn, repeatsCredential, signInAddress } from '@/lib/security/sign-in-throttle';

/** Only paths on this site: an open redirect after sign-in would be a phishing tool. */
const safeCallback = (v: FormDataEntryValue | null) => (typeof v === 'string' && /^\/(?!\/)[^\\]*$/.test(v) ? v : '/');

export async function signInWithPassword(formData: FormData) {
  const callbackUrl = safeCallback(formData.get('callbackUrl'));
  const back = (error: string) => redirect(`/signin?error=${error}&callbackUrl=${encodeURIComponent(callbackUrl)}`);
  const address = signInAddress(await headers());
  // The name counted is the name checked: a form that repeats one is not checked at all.
  if (repeatsCredential(formData)) back('credentials');
  const email = formData.get('email');
  const account = typeof email === 'string' ? email : '';
  // Every attempt counts against the address's write limit; wrong passwords also lock the account
  // and the address out for a while (lib/security/sign-in-throttle.ts, the same as the route's).
  if (!(await rateLimit('write', `addr:${address}`, 'address')).ok) back('rate');
  const begun = await beginSignIn(account, address, 'form');
  if ('retryAfterS' in begun) return back('rate');
  try {
    await signIn('credentials', { email, password: formData.get('password'), redirectTo: callbackUrl });
    await begun.settle(true);
  } catch (err) {
    // A wrong name or password is an AuthError; success is the redirect, thrown too.
    await begun.settle(!(err instanceof AuthError));
    if (err instanceof AuthError) back('credentials');
    throw err;
  }
}

export async function signInWithOidc(formData: FormData) {
  await signIn('oidc', { redirectTo: safeCallback(formData.get('callbackUrl')) });
}

export async function signOutAction() {
  await signOut({ redirectTo: '/signin' });
}
