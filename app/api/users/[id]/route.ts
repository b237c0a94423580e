import { requireAdmin } from '@/lib/auth/access';
import { changeUser, removeUser, userPatchSchema } from '@/lib/auth/users-admin';
import { guardedWrite } from '@/lib/server/http';
import { readJsonCapped } from '@/lib/security/request-guard';

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    await requireAdmin();
    const parsed = userPatchSchema.safeParse(await readJsonCapped(request, 8 * 1024));
    if (!parsed.success) return Response.json({ error: 'Give a role (admin or member) or a password of at least 8 characters.' }, { status: 400 });
    return Response.json({ user: await changeUser(id, parsed.data) });
  });
}

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    await requireAdmin();
    await removeUser(id);
    return new Response(null, { status: 204 });
  });
}
