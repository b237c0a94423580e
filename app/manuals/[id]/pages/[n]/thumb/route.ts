import { pageImageResponse } from '@/lib/manuals/page-image-response';

export async function GET(request: Request, { params }: { params: Promise<{ id: string; n: string }> }) {
  const { id, n } = await params;
  return pageImageResponse(request, id, n, 'thumb');
}
