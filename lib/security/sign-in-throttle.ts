/**
 * Password guessing, stopped where passwords are checked: both ways into Auth.js's credentials
 * provider — `POST /api/auth/callback/credentials` (the route, wrapped by
 * `throttleCredentialsCallback`) and the sign-in form's server action (app/signin/actions.ts) —
 * count each attempt with `beginSignIn` before the password is checked and settle it after.
 *
 * Per account (the name Auth.js checks, normalised like the users table; a form that repeats a
 * credential field is refused, 400) and per client address (the socket address unless a trusted proxy says
 * otherwise: lib/config/network.ts): 30 failures a minute — attempts still being checked count
 * too, so a burst gets at most 30 passwords checked — then
 * every attempt — the right password too — is refused (429) for a minute, two at the next lockout,
 * then four … up to 15 minutes (lib/security/failure-throttle.ts). Each failed or refused attempt
 * is one JSON line on stderr with the account and the address, never the password.
 */
import { clientAddress } from '../config/network';
import { getConfig } from '../config';
import { FailureThrottle, type FailureRule } from './failure-throttle';
import { tooManyRequests } from './rate-limit';
import { readBodyCapped } from './request-guard';

/** A sign-in post is a few hundred bytes; the route caps the body before this reads it again. */
const POSTED_ACCOUNT_MAX_BYTES = 16 * 1024;

const SIGN_IN_RULE: FailureRule = { failures: 30, windowMs: 60_000, maxLockMs: 15 * 60_000 };

const state = globalThis as unknown as { __mcSignInThrottle?: FailureThrottle };
const throttle = () => (state.__mcSignInThrottle ??= new FailureThrottle(SIGN_IN_RULE, 'sign-in:failures'));

/** The account as the users table matches it (findUserByEmail trims and lower-cases). */
const accountOf = (name: string) => name.trim().toLowerCase().slice(0, 320);
const keysOf = (account: string, address: string) => [`account:${accountOf(account)}`, `address:${address}`];

type Via = 'form' | 'route';

function logAttempt(event: 'signin_failed' | 'signin_refused', account: string, address: string, via: Via): void {
  console.warn(JSON.stringify({ event, account: accountOf(account), address, via, at: new Date().toISOString() }));
}

/** The address the sign-in limits count for a request's headers. */
export function signInAddress(headers: Headers): string {
  return clientAddress(headers, getConfig().trustedProxies);
}

/** A sign-in attempt let through: settle it with whether it signed in (a failure is logged). */
export type SignInAttempt = { settle(signedIn: boolean): Promise<void> };

/**
 * Counts an attempt against the account and the address before its password is checked: refused
 * (seconds to wait, logged) when either is locked out or has its limit counted, else an attempt to
 * settle. Counting first is what bounds a burst: concurrent attempts cannot all pass the check.
 */
export async function beginSignIn(account: string, address: string, via: Via): Promise<{ retryAfterS: number } | SignInAttempt> {
  const begun = await throttle().begin(keysOf(account, address));
  if ('retryAfterS' in begun) {
    logAttempt('signin_refused', account, address, via);
    return begun;
  }
  let settled = false;
  return {
    async settle(signedIn) {
      if (settled) return;
      settled = true;
      if (signedIn) return begun.attempt.succeeded();
      await begun.attempt.failed();
      logAttempt('signin_failed', account, address, via);
    },
  };
}

/**
 * Whether a posted form names a credential field more than once. Readers disagree on which copy
 * counts (URLSearchParams.get takes the first, Auth.js the last), so such a post is not checked.
 */
export function repeatsCredential(form: { getAll(name: string): unknown[] }): boolean {
  return form.getAll('email').length > 1 || form.getAll('password').length > 1;
}

/**
 * The name Auth.js will check for a credentials post, parsed as Auth.js parses it (JSON when the
 * content type says so, else a form; @auth/core's getBody), or `repeated` for a form that names
 * a credential field twice.
 */
async function postedAccount(request: Request): Promise<{ account: string } | { repeated: true }> {
  let text: string;
  try {
    text = (await readBodyCapped(request, POSTED_ACCOUNT_MAX_BYTES)).toString('utf8');
  } catch {
    return { account: '' };
  }
  const type = request.headers.get('content-type') ?? '';
  let email: unknown;
  if (type.includes('application/json')) {
    // JSON.parse keeps the last of repeated keys, as Auth.js's request.json() does.
    try {
      email = (JSON.parse(text) as { email?: unknown } | null)?.email;
    } catch {
      email = undefined;
    }
  } else if (type.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    if (repeatsCredential(form)) return { repeated: true };
    email = form.get('email');
  }
  return { account: typeof email === 'string' ? email : '' };
}

/** Auth.js signs someone in by setting its session cookie; every other answer is a failed attempt. */
function signedIn(response: Response): boolean {
  return response.headers.getSetCookie().some((c) => /^(__Secure-)?authjs\.session-token(\.\d+)?=[^;]/.test(c));
}

/**
 * Whether Auth.js reads this path as the credentials callback. It splits the path on "/" and drops
 * empty parts, so `/callback/credentials/` is the same callback: the test must be as lenient.
 */
function isCredentialsCallback(url: string): boolean {
  return new URL(url).pathname.split('/').filter(Boolean).slice(-2).join('/') === 'callback/credentials';
}

/** Wraps the Auth.js POST handler: the credentials callback is throttled; other POSTs pass through. */
export function throttleCredentialsCallback<R extends Request>(post: (request: R) => Promise<Response>): (request: R) => Promise<Response> {
  return async (request) => {
    if (!isCredentialsCallback(request.url)) return post(request);
    const posted = await postedAccount(request.clone());
    if ('repeated' in posted) return Response.json({ error: 'Send the name and the password once each.', code: 'bad_request' }, { status: 400 });
    const address = signInAddress(request.headers);
    const begun = await beginSignIn(posted.account, address, 'route');
    if ('retryAfterS' in begun) return tooManyRequests('sign-in attempts', begun.retryAfterS);
    let response: Response | undefined;
    try {
      response = await post(request);
      return response;
    } finally {
      await begun.settle(!!response && signedIn(response));
    }
  };
}
