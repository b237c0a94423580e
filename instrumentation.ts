export async function register() {
  // Node.js server only (not the edge runtime, not the build).
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First: unknown Host names are refused, and per-address limits see the socket address.
  const { installRequestHooks } = await import('./lib/security/request-hooks');
  const { hostPolicy } = await import('./lib/config');
  installRequestHooks(hostPolicy);
  const { startServer } = await import('./lib/server/startup');
  await startServer();
}
