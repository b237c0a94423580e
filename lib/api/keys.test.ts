/**
 * API keys: invalid keys are audited with the address and limited per address; a key
 * acts with its creator's current role (a demoted administrator's key is refused). Real database.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { changeUser } from '@/lib/auth/users-admin';
import { closeDb } from '@/lib/store/db';
import { listAudit } from '@/lib/store/api-keys';
import { createUser } from '@/lib/store/users';
import { authenticate, authenticateRequest, createApiKey, INVALID_KEY_RULE, revokeKey } from './keys';

afterEach(() => {
  delete process.env.MC_AUTH;
});
afterAll(() => closeDb());

const call = (key: string, address: string) =>
  authenticateRequest(new Request('http://app.test/api/v1/ask', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address } }));

describe('invalid keys', () => {
  it('are audited with the address; past the limit an address gets 429, even with a valid key', async () => {
    const { key } = await createApiKey('owner-1', 'valid');
    const { key: revoked, view } = await createApiKey('owner-1', 'revoked');
    await revokeKey('owner-1', view.id);
    for (let i = 0; i < INVALID_KEY_RULE.failures; i++) {
      const res = (await call(i % 2 ? 'mc_guess-' + i : revoked, '198.51.100.40')) as Response;
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const limited = (await call('mc_guess-again', '198.51.100.40')) as Response;
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await call(key, '198.51.100.40')) as Response).status).toBe(429);
    // Another address is not affected.
    expect(await call(key, '198.51.100.41')).toMatchObject({ ownerId: 'owner-1' });

    const unknown = await listAudit('unknown', 200);
    expect(unknown.filter((r) => /^unknown key \(from 198\.51\.100\.40\)$/.test(r.message ?? ''))).toHaveLength(15);
    expect(unknown.some((r) => r.outcome === 'refused' && /too many invalid keys from 198\.51\.100\.40/.test(r.message ?? ''))).toBe(true);
    expect((await listAudit('owner-1', 200)).filter((r) => r.message === 'revoked key (from 198.51.100.40)')).toHaveLength(15);
  });
});

describe('a key acts with its creator’s current role', () => {
  it('where sign-in is required, a demoted administrator’s key is refused (403), and works again once promoted', async () => {
    process.env.MC_AUTH = 'signin';
    const admin = await createUser({ email: 'demoted@example.com', role: 'admin' });
    const { key } = await createApiKey(admin.id, 'script');
    expect(await authenticate(`Bearer ${key}`, '198.51.100.50')).toMatchObject({ ownerId: admin.id });
    await changeUser(admin.id, { role: 'member' });
    await expect(authenticate(`Bearer ${key}`, '198.51.100.50')).rejects.toMatchObject({ status: 403 });
    const res = (await call(key, '198.51.100.50')) as Response;
    expect(res.status).toBe(403);
    expect((await listAudit(admin.id, 10)).some((r) => r.message === 'owner is no longer an administrator')).toBe(true);
    await changeUser(admin.id, { role: 'admin' });
    expect(await authenticate(`Bearer ${key}`, '198.51.100.50')).toMatchObject({ ownerId: admin.id });
  });
});
