/**
 * Roles and the actor behind an owner id, free of Next.js request APIs so the library, the CLI and
 * tests use the same rules as the routes (lib/auth/access.ts resolves the request's actor).
 */
import { getConfig } from '../config';
import type { UserRole } from '../store/schema';
import { getUser } from '../store/users';

export interface Actor {
  id: string;
  role: UserRole;
}

export class AccessError extends Error {
  constructor(
    readonly status: 401 | 403 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'AccessError';
  }
  toResponse(): Response {
    return Response.json(
      { error: this.message, code: this.status === 401 ? 'unauthorized' : this.status === 404 ? 'not_found' : 'forbidden' },
      { status: this.status },
    );
  }
}

/** The actor behind an owner id: in local mode every cookie holder is the admin; otherwise the user's role. */
export async function actorFor(ownerId: string | null): Promise<Actor | null> {
  if (!ownerId) return null;
  if (!getConfig().auth.signInRequired) return { id: ownerId, role: 'admin' };
  const user = await getUser(ownerId);
  return user ? { id: user.id, role: user.role } : null;
}

export class SignInRequiredError extends AccessError {
  constructor() {
    super(401, 'Please sign in first.');
    this.name = 'SignInRequiredError';
  }
}
