import { requireActor, requireReader } from '@/lib/auth/access';
import { filesDir } from '@/lib/ingest/paths';
import { errorResponse } from '@/lib/server/http';
import { assertRoomFor } from '@/lib/ingest/upload';
import { acceptUpload, listManualViews } from '@/lib/manuals/service';
import { rateLimit, tooManyRequests } from '@/lib/security/rate-limit';
import { guardWrite } from '@/lib/security/request-guard';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    const actor = await requireReader();
    return Response.json({ manuals: await listManualViews(actor?.id ?? null) }, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}

/** Upload: the PDF is the raw request body; its name travels URI-encoded in `x-file-name`. */
export async function POST(request: Request) {
  if (!request.body) return Response.json({ error: 'No file was sent.' }, { status: 400 });
  let fileName = 'upload.pdf';
  try {
    fileName = decodeURIComponent(request.headers.get('x-file-name') ?? fileName);
  } catch {
    // A malformed name is only cosmetic: keep the default.
  }
  // A disk that cannot take the file (its declared size plus the reserve) refuses it before any work: 507.
  const length = Number(request.headers.get('content-length') ?? '');
  const declaredBytes = Number.isSafeInteger(length) && length > 0 ? length : undefined;
  try {
    // Foreign origin (403), address over its limit (429), no room (507), no cookie or sign-in
    // (401): all before any byte is read.
    await guardWrite(request, 'upload');
    assertRoomFor(filesDir(), declaredBytes ?? 0);
    const { id: owner } = await requireActor();
    const allowed = await rateLimit('upload', owner);
    if (!allowed.ok) return tooManyRequests('uploads', allowed.retryAfterS);
    const result = await acceptUpload(request.body, fileName, owner, declaredBytes);
    return Response.json(result, { status: result.duplicate ? 200 : 201 });
  } catch (err) {
    return errorResponse(err);
  }
}
