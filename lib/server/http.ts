import { AccessError } from '../auth/roles';
import { isIngestError } from '../ingest/errors';
import { LibraryError } from '../manuals/service';
import { diskFullResponse, isDiskFull } from '../runtime/disk-space';
import { GuardError, guardWrite } from '../security/request-guard';

/** Maps domain errors to JSON responses with the user-facing message; logs the unexpected ones. */
export function errorResponse(err: unknown): Response {
  if (isIngestError(err)) {
    const status = err.code === 'too_large' ? 413 : err.code === 'disk_full' ? 507 : 422;
    return Response.json({ error: err.message, code: err.code }, { status });
  }
  if (err instanceof LibraryError) return Response.json({ error: err.message }, { status: err.status });
  if (err instanceof GuardError || err instanceof AccessError) return err.toResponse();
  // A full disk (SQLite, Postgres, LanceDB, a file write) is the operator's problem, not a bug: 507.
  if (isDiskFull(err)) {
    console.error('[api] the disk is full', err);
    return diskFullResponse();
  }
  console.error('[api] unexpected error', err);
  return Response.json({ error: 'Something went wrong on the server. Please try again.' }, { status: 500 });
}

/**
 * Runs a route that changes something: the request passes the write guard (same origin, rate
 * limit) before `handle` runs; any error either throws becomes the errorResponse for it. `handle`
 * checks who is asking before it reads the body (readJsonCapped).
 */
export async function guardedWrite(request: Request, handle: () => Promise<Response>): Promise<Response> {
  try {
    await guardWrite(request, 'write');
    return await handle();
  } catch (err) {
    return errorResponse(err);
  }
}
