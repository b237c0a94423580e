export async function register() {
  // Node.js server only (not the edge runtime, not the build).
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('./lib/server/startup');
  await startServer();
}
