import { pageImageResponse } from '@/lib/manuals/page-image-response';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; n: string }> }) {
  const { id, n } = await params;
  return pageImageResponse(id, n, 'image');
}
