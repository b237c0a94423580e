/**
 * What Next's server sets up before it loads anything (next/dist/server/node-environment): its
 * request APIs find their AsyncLocalStorage on globalThis. Imported first by request-scope.ts, so
 * it runs before any Next module is evaluated.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

(globalThis as { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage ??= AsyncLocalStorage;
