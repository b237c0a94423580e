/** OpenID Connect sign-ins are linked to an account by email only when the provider verified it. */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../store/db';
import { createUser, findUserByEmail, listUsers } from '../store/users';
import { accountForOidc, OidcAccountError } from './oidc-account';

afterAll(closeDb);

describe('accountForOidc', () => {
  it('links to the account with that email only when email_verified is true', async () => {
    const boss = await createUser({ email: 'boss@corp.example', role: 'admin', passwordHash: 'scrypt$x' });
    const count = (await listUsers()).length;
    for (const email_verified of [false, undefined, null, 'false', 1, 'yes']) {
      await expect(accountForOidc({ email: 'Boss@Corp.example', email_verified, name: 'Mallory' }), String(email_verified)).rejects.toBeInstanceOf(
        OidcAccountError,
      );
    }
    expect((await listUsers()).length).toBe(count);
    expect((await accountForOidc({ email: 'Boss@Corp.example', email_verified: true })).id).toBe(boss.id);
    // Some providers send the claim as a string.
    expect((await accountForOidc({ email: 'boss@corp.example', email_verified: 'true' })).id).toBe(boss.id);
  });

  it('makes a new member from a verified email, and none from an unverified one', async () => {
    await expect(accountForOidc({ email: 'newbie@corp.example', email_verified: false })).rejects.toThrow(/not verified/);
    expect(await findUserByEmail('newbie@corp.example')).toBeUndefined();
    const created = await accountForOidc({ email: 'newbie@corp.example', email_verified: true, name: 'New\u202E \u200BBie' });
    expect(created).toMatchObject({ email: 'newbie@corp.example', role: 'member', name: 'New Bie', passwordHash: null });
  });

  it('refuses a profile without an email', async () => {
    await expect(accountForOidc({ email_verified: true })).rejects.toThrow(/did not share an email/);
    await expect(accountForOidc(undefined)).rejects.toBeInstanceOf(OidcAccountError);
  });
});
