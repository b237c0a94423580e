export async function register() {
  // Node.js server only (not the edge runtime, not the build).
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First: per-address limits must see the socket address, not a header the client chose.
  const { installPeerAddress } = await import('./lib/security/peer-address');
  installPeerAddress();
  const { startServer } = await import('./lib/server/startup');
  await startServer();
}
