import { z } from 'zod';
import { requireActor } from '@/lib/auth/access';
import { errorResponse } from '@/lib/http';
import { deleteManual, renameManual } from '@/lib/library';
import { guardWrite } from '@/lib/security/request-guard';

const patchSchema = z.object({ title: z.string().max(1000) });

/** Renames a manual (whoever may change it: its uploader or an admin; anyone for ownerless manuals). */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    guardWrite(request, 'write');
    const parsed = patchSchema.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ error: 'Send the new title as {"title": "…"}.' }, { status: 400 });
    return Response.json({ manual: await renameManual(id, parsed.data.title, (await requireActor()).id) });
  } catch (err) {
    return errorResponse(err);
  }
}

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    guardWrite(request, 'write');
    await deleteManual(id, (await requireActor()).id);
    return new Response(null, { status: 204 });
  } catch (err) {
    return errorResponse(err);
  }
}
