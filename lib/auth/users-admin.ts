/** Managing users (admins only, checked by the callers): create, change role or password, remove. */
import { z } from 'zod';
import { cleanName } from '../text/hygiene';
import { ADMIN_USER_ID, createUser, deleteUser, findUserByEmail, getUser, listUsers, updateUser, type User } from '../store/users';
import { AccessError } from './roles';
import { hashPassword } from './password';

export const newUserSchema = z.object({
  email: z.string().trim().min(1).max(320),
  name: z.string().trim().max(120).optional(),
  role: z.enum(['admin', 'member']).default('member'),
  password: z.string().min(8, 'at least 8 characters').max(1024),
});
export const userPatchSchema = z.object({
  role: z.enum(['admin', 'member']).optional(),
  password: z.string().min(8, 'at least 8 characters').max(1024).optional(),
});

export type UserView = Pick<User, 'id' | 'email' | 'name' | 'role'> & { hasPassword: boolean };
const view = (u: User): UserView => ({ id: u.id, email: u.email, name: u.name, role: u.role, hasPassword: !!u.passwordHash });

export async function listUserViews(): Promise<UserView[]> {
  return (await listUsers()).map(view);
}

export async function addUser(input: z.infer<typeof newUserSchema>): Promise<UserView> {
  const email = cleanName(input.email);
  if (!email) throw new AccessError(403, 'Give the user a sign-in name.');
  if (await findUserByEmail(email)) throw new AccessError(403, `A user named ${email} already exists.`);
  return view(await createUser({ email, name: input.name && cleanName(input.name), role: input.role, passwordHash: await hashPassword(input.password) }));
}

export async function changeUser(id: string, patch: z.infer<typeof userPatchSchema>): Promise<UserView> {
  if (!(await getUser(id))) throw new AccessError(404, 'No such user.');
  // The built-in administrator stays an administrator: someone must always be able to manage users.
  if (id === ADMIN_USER_ID && patch.role === 'member') throw new AccessError(403, 'The built-in administrator cannot be made a member.');
  await updateUser(id, { ...(patch.role ? { role: patch.role } : {}), ...(patch.password ? { passwordHash: await hashPassword(patch.password) } : {}) });
  return view((await getUser(id))!);
}

export async function removeUser(id: string): Promise<void> {
  if (id === ADMIN_USER_ID) throw new AccessError(403, 'The built-in administrator cannot be removed.');
  if (!(await getUser(id))) throw new AccessError(404, 'No such user.');
  await deleteUser(id);
}
