import { isIngestError } from './ingest/errors';
import { LibraryError } from './library';

/** Maps domain errors to JSON responses with the user-facing message; logs the unexpected ones. */
export function errorResponse(err: unknown): Response {
  if (isIngestError(err)) {
    const status = err.code === 'too_large' ? 413 : err.code === 'disk_full' ? 507 : 422;
    return Response.json({ error: err.message, code: err.code }, { status });
  }
  if (err instanceof LibraryError) return Response.json({ error: err.message }, { status: err.status });
  console.error('[api] unexpected error', err);
  return Response.json({ error: 'Something went wrong on the server. Please try again.' }, { status: 500 });
}
