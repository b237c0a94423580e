import type { Metadata } from 'next';
import { auth } from '@/lib/auth/auth';
import { getConfig } from '@/lib/config';
import { signInWithOidc, signInWithPassword, signOutAction } from './actions';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  credentials: 'That name and password do not match an account.',
  rate: 'Too many attempts for this account or from this address. Please wait a few minutes and try again.',
};

const input = 'w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900';
const button = 'w-full rounded-md bg-zinc-900 px-3 py-2 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900';

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl = '/', error } = await searchParams;
  const { auth: authConfig } = getConfig();
  const session = authConfig.signInRequired ? await auth() : null;
  return (
    <div className="mx-auto w-full max-w-sm space-y-6 px-4 py-16">
      <h1 className="text-2xl font-semibold tracking-tight" data-testid="page-title">
        Sign in
      </h1>
      {!authConfig.signInRequired ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">This app serves only this computer: you are its administrator, no sign-in needed.</p>
      ) : session?.user ? (
        <form action={signOutAction} className="space-y-3">
          <p className="text-sm" data-testid="signed-in-as">
            Signed in as {session.user.name ?? session.user.email}.
          </p>
          <button className={button} data-testid="sign-out">
            Sign out
          </button>
        </form>
      ) : (
        <>
          {error && (
            <p role="alert" data-testid="signin-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
              {ERRORS[error] ?? 'Sign-in failed. Please try again.'}
            </p>
          )}
          <form action={signInWithPassword} className="space-y-3" data-testid="signin-form">
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <label className="block space-y-1 text-sm">
              <span>Name or email</span>
              <input name="email" autoComplete="username" required maxLength={320} className={input} />
            </label>
            <label className="block space-y-1 text-sm">
              <span>Password</span>
              <input name="password" type="password" autoComplete="current-password" required maxLength={1024} className={input} />
            </label>
            <button className={button}>Sign in</button>
          </form>
          {authConfig.oidc && (
            <form action={signInWithOidc}>
              <input type="hidden" name="callbackUrl" value={callbackUrl} />
              <button className={button}>{authConfig.oidc.name}</button>
            </form>
          )}
        </>
      )}
    </div>
  );
}
