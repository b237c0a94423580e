/**
 * Runs a route handler (or anything calling `cookies()` / `headers()` / Auth.js's `auth()`) inside
 * the request scope Next.js gives it in the server, so tests call the real handler with a real
 * Request: the request store Next's app-route module builds (`createRequestStoreForAPI`) and the
 * few fields of its work store that the request APIs read.
 */
// First: Next's storage must exist before its modules load (see async-storage.ts).
import './async-storage';
import { workAsyncStorage } from 'next/dist/server/app-render/work-async-storage.external';
import { workUnitAsyncStorage } from 'next/dist/server/app-render/work-unit-async-storage.external';
import { createRequestStoreForAPI } from 'next/dist/server/async-storage/request-store';

export function inRequestScope<T>(request: Request, run: () => Promise<T>): Promise<T> {
  const url = new URL(request.url);
  // Next's server fills these in from the socket; Auth.js builds its session URL from them.
  const headers = { host: url.host, 'x-forwarded-proto': url.protocol.slice(0, -1), ...Object.fromEntries(request.headers) };
  const requestStore = createRequestStoreForAPI(
    { headers } as never,
    { pathname: url.pathname, search: url.search },
    { tags: [], expirationsByCacheKind: new Map() } as never,
    undefined,
    undefined,
    undefined,
  );
  const workStore = { route: url.pathname, page: url.pathname, forceStatic: false, dynamicShouldError: false, isStaticGeneration: false } as never;
  return workAsyncStorage.run(workStore, () => workUnitAsyncStorage.run(requestStore, run));
}
