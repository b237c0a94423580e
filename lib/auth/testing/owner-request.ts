/**
 * Route handlers read their caller from `next/headers`, which needs Next's request scope. Tests
 * that call a route directly replace the module with this: the original, whose `cookies()` holds
 * a valid owner cookie for `ownerId` (signed with this DATA_DIR's secret), as a browser sends it.
 *
 *   vi.mock('next/headers', (importOriginal) => withOwnerCookie(importOriginal, 'route-test-owner-01'));
 */
import { OWNER_COOKIE, signOwnerId } from '../owner-cookie';

export async function withOwnerCookie(importOriginal: () => Promise<unknown>, ownerId: string) {
  const original = (await importOriginal()) as Record<string, unknown>;
  const value = signOwnerId(ownerId);
  return {
    ...original,
    cookies: async () => ({ get: (name: string) => (name === OWNER_COOKIE ? { name, value } : undefined), getAll: () => [{ name: OWNER_COOKIE, value }] }),
  };
}
