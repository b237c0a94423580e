import { z } from 'zod';
import { requireActor } from '@/lib/auth/access';
import { guardedWrite } from '@/lib/server/http';
import { deleteManual, renameManual } from '@/lib/manuals/service';
import { readJsonCapped } from '@/lib/security/request-guard';

const patchSchema = z.object({ title: z.string().max(1000) });

/** Renames a manual (whoever may change it: its uploader or an admin; anyone for ownerless manuals). */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    // Who is asking (401) before a byte of the body is read; the body is capped (413).
    const actor = await requireActor();
    const parsed = patchSchema.safeParse(await readJsonCapped(request, 8 * 1024));
    if (!parsed.success) return Response.json({ error: 'Send the new title as {"title": "…"}.' }, { status: 400 });
    return Response.json({ manual: await renameManual(id, parsed.data.title, actor.id) });
  });
}

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    await deleteManual(id, (await requireActor()).id);
    return new Response(null, { status: 204 });
  });
}
