import { currentOwnerId } from '@/lib/auth/owner';
import { errorResponse } from '@/lib/http';
import { deleteManual } from '@/lib/library';

export async function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  try {
    await deleteManual(id, await currentOwnerId());
    return new Response(null, { status: 204 });
  } catch (err) {
    return errorResponse(err);
  }
}
