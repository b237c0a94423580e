/**
 * What every page shows when the state database cannot be read (a corrupt or unreadable app.db):
 * the reason and where to look, instead of an anonymous server error.
 */
export function DatabaseError({ reason }: { reason: string }) {
  return (
    <div role="alert" data-testid="database-error" className="mx-auto flex max-w-xl flex-1 flex-col justify-center gap-3 px-4 py-24">
      <h1 className="text-2xl font-semibold">The library’s database cannot be read</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        The server is running, but its database answered: <code className="break-words font-mono text-sm">{reason}</code>
      </p>
      <p className="text-zinc-600 dark:text-zinc-400">
        Restore <code className="font-mono text-sm">app.db</code> in the data folder from a backup (or move it aside to start an empty library), then restart
        the app.{' '}
        <a href="/api/health" className="text-brand-600 underline">
          /api/health
        </a>{' '}
        reports the same reason.
      </p>
    </div>
  );
}
