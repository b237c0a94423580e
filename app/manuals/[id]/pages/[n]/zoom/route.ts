import fs from 'node:fs';
import { ensureZoomImage, ZOOM_SCALES } from '@/lib/manuals/page-zoom';

/** A page rendered sharper for zooming: `?scale=3` or `?scale=4.5` (pixels per PDF point). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; n: string }> }) {
  const { id, n } = await params;
  const page = Number(n);
  const scale = ZOOM_SCALES.find((s) => String(s) === new URL(request.url).searchParams.get('scale'));
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id) || !Number.isInteger(page) || page < 1 || !scale) return new Response('Not found', { status: 404 });
  const file = await ensureZoomImage(id, page, scale).catch((err) => {
    console.error('[pages] could not render a zoomed page', id, page, err);
    return null;
  });
  if (!file) return new Response('Not found', { status: 404 });
  const body = await fs.promises.readFile(file);
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000, immutable', 'content-length': String(body.length) },
  });
}
