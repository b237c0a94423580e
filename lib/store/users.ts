/** Users and roles (schema.ts `users`). The `admin` row is created by the migration. */
import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { getDb } from './db';
import { users, type UserRole } from './tables';

export const ADMIN_USER_ID = 'admin';

export type User = typeof users.$inferSelect;

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const db = await getDb();
  return db.query.users.findFirst({ where: eq(users.email, email.trim().toLowerCase()) });
}

export async function getUser(id: string): Promise<User | undefined> {
  const db = await getDb();
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

export async function listUsers(): Promise<User[]> {
  const db = await getDb();
  return db.select().from(users).orderBy(asc(users.createdAt));
}

export async function createUser(u: { email: string; name?: string; role: UserRole; passwordHash?: string | null }): Promise<User> {
  const db = await getDb();
  const email = u.email.trim().toLowerCase();
  const row = { id: randomUUID(), email, name: u.name?.trim() || email, role: u.role, passwordHash: u.passwordHash ?? null };
  await db.insert(users).values(row);
  return (await getUser(row.id))!;
}

/** Changes a user; a new password also ends every session of theirs (the session version goes up). */
export async function updateUser(id: string, patch: Partial<Pick<User, 'email' | 'name' | 'role' | 'passwordHash'>>): Promise<void> {
  const db = await getDb();
  await db
    .update(users)
    .set({
      ...patch,
      ...(patch.email ? { email: patch.email.trim().toLowerCase() } : {}),
      ...(patch.passwordHash !== undefined ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}),
    })
    .where(eq(users.id, id));
}

/** Ends every session of a user: tokens carry the session version they were issued with (lib/auth/session-version.ts). */
export async function endSessions(id: string): Promise<void> {
  const db = await getDb();
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id));
}

/** Removes a user; the administrator row cannot be removed (it owns CLI ingests). */
export async function deleteUser(id: string): Promise<void> {
  if (id === ADMIN_USER_ID) throw new Error('The administrator cannot be removed.');
  const db = await getDb();
  await db.delete(users).where(eq(users.id, id));
}
