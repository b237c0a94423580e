import { pageZoomResponse } from '@/lib/manuals/page-image-response';

/** A page rendered sharper for zooming: `?scale=3` or `?scale=4.5` (pixels per PDF point). Readers only, like image and thumb. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; n: string }> }) {
  const { id, n } = await params;
  return pageZoomResponse(request, id, n, new URL(request.url).searchParams.get('scale'));
}
