import { z } from 'zod';
import { currentOwnerId } from '@/lib/auth/owner';
import { errorResponse } from '@/lib/http';
import { retryWithPassword } from '@/lib/library';

const bodySchema = z.object({ password: z.string().min(1).max(1024) });

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: 'Enter the PDF password.' }, { status: 400 });
  try {
    const manual = await retryWithPassword(id, parsed.data.password, await currentOwnerId());
    return Response.json({ manual });
  } catch (err) {
    return errorResponse(err);
  }
}
