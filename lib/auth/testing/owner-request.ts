/**
 * Route handlers read their caller from `next/headers`, which needs Next's request scope. Tests
 * that call a route directly replace the module with this: the original, whose `cookies()` holds
 * a valid owner cookie for `testCaller.ownerId` (signed with this DATA_DIR's secret), as a browser
 * sends it — or no cookie at all while it is null.
 *
 *   vi.mock('next/headers', async (importOriginal) => (await import('@/lib/auth/testing/owner-request')).withOwnerCookie(importOriginal, 'route-test-owner-01'));
 */
import { OWNER_COOKIE, signOwnerId } from '../owner-cookie';

/** Who the mocked cookie names; set `ownerId` to null for a request without one. */
export const testCaller: { ownerId: string | null } = { ownerId: null };

export async function withOwnerCookie(importOriginal: () => Promise<unknown>, ownerId: string | null) {
  const original = (await importOriginal()) as Record<string, unknown>;
  testCaller.ownerId = ownerId;
  const jar = () => (testCaller.ownerId ? [{ name: OWNER_COOKIE, value: signOwnerId(testCaller.ownerId) }] : []);
  return {
    ...original,
    cookies: async () => ({ get: (name: string) => jar().find((c) => c.name === name), getAll: jar }),
  };
}
