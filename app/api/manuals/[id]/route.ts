import { z } from 'zod';
import { currentOwnerId } from '@/lib/auth/owner';
import { errorResponse } from '@/lib/http';
import { deleteManual, renameManual } from '@/lib/library';

const patchSchema = z.object({ title: z.string().max(1000) });

/** Renames a manual (its uploader; anyone for manuals without one). */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const parsed = patchSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: 'Send the new title as {"title": "…"}.' }, { status: 400 });
  try {
    return Response.json({ manual: await renameManual(id, parsed.data.title, await currentOwnerId()) });
  } catch (err) {
    return errorResponse(err);
  }
}

export async function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    await deleteManual(id, await currentOwnerId());
    return new Response(null, { status: 204 });
  } catch (err) {
    return errorResponse(err);
  }
}
