import { z } from 'zod';
import { requireActor } from '@/lib/auth/access';
import { guardedWrite } from '@/lib/server/http';
import { deleteManual, renameManual } from '@/lib/manuals/service';

const patchSchema = z.object({ title: z.string().max(1000) });

/** Renames a manual (whoever may change it: its uploader or an admin; anyone for ownerless manuals). */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    const parsed = patchSchema.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ error: 'Send the new title as {"title": "…"}.' }, { status: 400 });
    return Response.json({ manual: await renameManual(id, parsed.data.title, (await requireActor()).id) });
  });
}

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    await deleteManual(id, (await requireActor()).id);
    return new Response(null, { status: 204 });
  });
}
