/**
 * The access model: on loopback the local user is the admin; where sign-in
 * is required, members manage their own manuals and admins every manual; no manual is ownerless.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { canModify } from '../manuals/service';
import { closeDb } from '../store/db';
import { createManual, getManual } from '../store/manuals';
import { ADMIN_USER_ID, createUser, findUserByEmail } from '../store/users';
import { hashPassword, verifyPassword } from './password';
import { actorFor } from './roles';
import { checkCredentials } from './credentials';
import { changeUser, removeUser } from './users-admin';

afterEach(() => {
  delete process.env.MC_AUTH;
  delete process.env.MC_ADMIN_PASSWORD;
});

describe('passwords', () => {
  it('hashes with a salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$/);
    expect(a).not.toBe(await hashPassword('correct horse'));
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('wrong horse', a)).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
  });
});

describe('roles', () => {
  it('on loopback any cookie holder is the admin; no cookie is no one', async () => {
    expect(await actorFor('some-browser-owner-id')).toEqual({ id: 'some-browser-owner-id', role: 'admin' });
    expect(await actorFor(null)).toBeNull();
  });

  it('with sign-in required: roles from the users table, members own only their manuals', async () => {
    process.env.MC_AUTH = 'signin';
    const member = await createUser({ email: 'Tech@Example.com', role: 'member', passwordHash: await hashPassword('member-pass') });
    expect(member.email).toBe('tech@example.com');
    const memberActor = (await actorFor(member.id))!;
    const adminActor = (await actorFor(ADMIN_USER_ID))!;
    expect(memberActor.role).toBe('member');
    expect(adminActor.role).toBe('admin');
    expect(await actorFor('a-forged-id')).toBeNull();

    await createManual({ id: 'm-cli', title: 'CLI', fileName: 'cli.pdf', sha256: 'a'.repeat(64), sizeBytes: 1 });
    await createManual({ id: 'm-member', title: 'Mine', fileName: 'mine.pdf', sha256: 'b'.repeat(64), sizeBytes: 1, ownerId: member.id });
    const cli = (await getManual('m-cli'))!;
    const mine = (await getManual('m-member'))!;
    expect(cli.ownerId).toBe(ADMIN_USER_ID); // no manual is ownerless
    expect(canModify(mine, memberActor)).toBe(true);
    expect(canModify(cli, memberActor)).toBe(false);
    expect(canModify(mine, adminActor)).toBe(true);
    expect(canModify(cli, adminActor)).toBe(true);
    expect(canModify(cli, null)).toBe(false);
  });

  it('signs in with the stored hash; the admin adopts MC_ADMIN_PASSWORD', async () => {
    process.env.MC_AUTH = 'signin';
    await createUser({ email: 'second', role: 'member', passwordHash: await hashPassword('second-pass') });
    expect(await checkCredentials('second', 'second-pass')).toMatchObject({ email: 'second' });
    expect(await checkCredentials('second', 'nope-nope')).toBeNull();
    expect(await checkCredentials('nobody', 'second-pass')).toBeNull();
    expect(await checkCredentials('admin', 'admin-pass-1')).toBeNull(); // no password yet
    process.env.MC_ADMIN_PASSWORD = 'admin-pass-1';
    expect(await checkCredentials('admin', 'admin-pass-1')).toMatchObject({ id: ADMIN_USER_ID });
    expect((await findUserByEmail('admin'))?.passwordHash).toMatch(/^scrypt\$/);
  });

  it('removing or changing an unknown user is a 404, the built-in admin stays', async () => {
    await expect(removeUser('no-such-user')).rejects.toMatchObject({ status: 404 });
    await expect(changeUser('no-such-user', { role: 'admin' })).rejects.toMatchObject({ status: 404 });
    await expect(removeUser(ADMIN_USER_ID)).rejects.toMatchObject({ status: 403 });
    const user = await createUser({ email: 'to-remove', role: 'member' });
    await removeUser(user.id);
    await expect(removeUser(user.id)).rejects.toMatchObject({ status: 404 });
    await closeDb();
  });
});
