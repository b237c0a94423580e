import { getConfig } from '../config';
import { ADMIN_USER_ID, findUserByEmail, getUser, updateUser } from '../store/users';
import { hashPassword, verifyPassword } from './password';

/** Checks a name and password; the admin's first sign-in adopts MC_ADMIN_PASSWORD when none is stored. */
export async function checkCredentials(email: string, password: string): Promise<{ id: string; name: string; email: string } | null> {
  const user = await findUserByEmail(email);
  if (!user) {
    await hashPassword(password); // same cost either way: no user enumeration by timing
    return null;
  }
  const { adminPassword } = getConfig().auth;
  if (user.id === ADMIN_USER_ID && adminPassword && !(await verifyPassword(adminPassword, user.passwordHash))) {
    // The environment's admin password wins over a stored one: changing it and restarting resets it.
    await updateUser(user.id, { passwordHash: await hashPassword(adminPassword) });
    user.passwordHash = (await getUser(user.id))!.passwordHash;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, name: user.name, email: user.email };
}
