import { requireAdmin } from '@/lib/auth/access';
import { addUser, listUserViews, newUserSchema } from '@/lib/auth/users-admin';
import { errorResponse, guardedWrite } from '@/lib/server/http';
import { readJsonCapped } from '@/lib/security/request-guard';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    await requireAdmin();
    return Response.json({ users: await listUserViews() }, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}

export async function POST(request: Request) {
  return guardedWrite(request, async () => {
    await requireAdmin();
    const parsed = newUserSchema.safeParse(await readJsonCapped(request, 8 * 1024));
    if (!parsed.success)
      return Response.json({ error: `Invalid user: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}` }, { status: 400 });
    return Response.json({ user: await addUser(parsed.data) }, { status: 201 });
  });
}
