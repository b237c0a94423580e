/**
 * Password guessing, stopped where passwords are checked: both ways into Auth.js's credentials
 * provider — `POST /api/auth/callback/credentials` (the route, wrapped by
 * `throttleCredentialsCallback`) and the sign-in form's server action (app/signin/actions.ts) —
 * ask `signInRetryAfterS` first and report each failure to `signInFailed`.
 *
 * Per account (the name typed, normalised like the users table) and per client address (the socket
 * address unless a trusted proxy says otherwise: lib/config/network.ts): 30 failures a minute, then
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

/** Seconds this account or address must wait before trying again (logged as refused); 0 to go ahead. */
export async function signInRetryAfterS(account: string, address: string, via: Via): Promise<number> {
  const wait = await throttle().retryAfterS(keysOf(account, address));
  if (wait) logAttempt('signin_refused', account, address, via);
  return wait;
}

/** A wrong name or password: counted against the account and the address, and logged. */
export async function signInFailed(account: string, address: string, via: Via): Promise<void> {
  await throttle().fail(keysOf(account, address));
  logAttempt('signin_failed', account, address, via);
}

/** The name posted to the credentials callback (form-encoded, as Auth.js's client sends it, or JSON). */
async function postedAccount(request: Request): Promise<string> {
  try {
    const text = (await readBodyCapped(request, POSTED_ACCOUNT_MAX_BYTES)).toString('utf8');
    const email = (request.headers.get('content-type') ?? '').includes('application/json')
      ? (JSON.parse(text) as { email?: unknown } | null)?.email
      : new URLSearchParams(text).get('email');
    return typeof email === 'string' ? email : '';
  } catch {
    return '';
  }
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
    const account = await postedAccount(request.clone());
    const address = signInAddress(request.headers);
    const wait = await signInRetryAfterS(account, address, 'route');
    if (wait) return tooManyRequests('sign-in attempts', wait);
    const response = await post(request);
    if (!signedIn(response)) await signInFailed(account, address, 'route');
    return response;
  };
}
