import { requireActor } from '@/lib/auth/access';
import { errorResponse } from '@/lib/http';
import { deleteManual } from '@/lib/library';
import { guardWrite } from '@/lib/security/request-guard';

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
