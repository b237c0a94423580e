import fs from 'node:fs';
import { ensurePageImage } from './page-images';

/** Serves a page image with long-lived caching: page images of a manual id never change. */
export async function pageImageResponse(id: string, n: string, kind: 'image' | 'thumb'): Promise<Response> {
  const page = Number(n);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id) || !Number.isInteger(page) || page < 1) return new Response('Not found', { status: 404 });
  const file = await ensurePageImage(id, page, kind).catch((err) => {
    console.error('[pages] could not render', id, page, err);
    return null;
  });
  if (!file) return new Response('Not found', { status: 404 });
  const body = await fs.promises.readFile(file);
  return new Response(new Uint8Array(body), {
    headers: {
      'content-type': kind === 'image' ? 'image/png' : 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(body.length),
    },
  });
}
