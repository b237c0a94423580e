/**
 * A full disk answers 507 with a sentence the person can act on, on every write path,
 * never a 500 — whichever layer noticed: SQLite (SQLITE_FULL), Postgres (53100), a file write
 * (ENOSPC), LanceDB (only a message), also when wrapped (Drizzle's "Failed query" keeps it as cause).
 */
import { describe, expect, it, vi } from 'vitest';
import { asAction, errorJson } from '@/lib/chat/errors';
import { isDiskFull } from '@/lib/runtime/disk-space';
import { errorResponse } from './http';

const withCode = (code: string, message = 'write failed') => Object.assign(new Error(message), { code });
const FULL = [
  ['SQLite', withCode('SQLITE_FULL', 'SQLITE_FULL: database or disk is full')],
  ['libsql (extended code only in the message)', new Error('SQLITE_FULL: database or disk is full')],
  ['Postgres', withCode('53100', 'could not extend file "base/16384/2619": No space left on device')],
  ['a file write', withCode('ENOSPC', 'ENOSPC: no space left on device, write')],
  ['LanceDB', new Error('lance error: LanceError(IO): Generic LocalFileSystem error: Unable to write: No space left on device (os error 28)')],
  ['Drizzle wrapping SQLite', new Error('Failed query: insert into "messages" …', { cause: withCode('SQLITE_FULL') })],
] as const;

describe('a full disk is a 507, not a 500', () => {
  it.each(FULL)('%s → 507 disk_full from the route mapping and the chat path', async (_label, err) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(isDiskFull(err)).toBe(true);
    for (const res of [errorResponse(err), errorJson(err)]) {
      expect(res.status).toBe(507);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.code).toBe('disk_full');
      expect(body.error).toMatch(/disk is full/);
    }
    // Server actions answer the same sentence.
    expect(await asAction(async () => Promise.reject(err))).toMatchObject({ ok: false, message: expect.stringMatching(/disk is full/) });
  });

  it('other failures stay 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = withCode('SQLITE_CONSTRAINT', 'UNIQUE constraint failed');
    expect(isDiskFull(err)).toBe(false);
    expect(errorResponse(err).status).toBe(500);
    expect(errorJson(err).status).toBe(500);
  });
});
