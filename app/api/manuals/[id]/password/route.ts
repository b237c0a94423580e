import { z } from 'zod';
import { requireActor } from '@/lib/auth/access';
import { guardedWrite } from '@/lib/server/http';
import { retryWithPassword } from '@/lib/manuals/service';
import { readJsonCapped } from '@/lib/security/request-guard';

const bodySchema = z.object({ password: z.string().min(1).max(1024) });

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return guardedWrite(request, async () => {
    const actor = await requireActor();
    const parsed = bodySchema.safeParse(await readJsonCapped(request, 8 * 1024));
    if (!parsed.success) return Response.json({ error: 'Enter the PDF password.' }, { status: 400 });
    const manual = await retryWithPassword(id, parsed.data.password, actor.id);
    return Response.json({ manual });
  });
}
