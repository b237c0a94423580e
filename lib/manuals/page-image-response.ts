import fs from 'node:fs';
import { requireReader } from '../auth/access';
import { AccessError } from '../auth/roles';
import { pageImage } from './page-images';

/** How long a request waits for a page that is not on disk yet before it gets the placeholder. */
const RENDER_WAIT_MS = 3000;

/**
 * Serves a page image with long-lived caching: page images of a manual id never change. A page
 * still being rendered (or that cannot be) gets a small uncached placeholder instead of holding
 * the request; the render goes on in a PDF worker process.
 */
export async function pageImageResponse(id: string, n: string, kind: 'image' | 'thumb'): Promise<Response> {
  const page = Number(n);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id) || !Number.isInteger(page) || page < 1) return new Response('Not found', { status: 404 });
  // Where sign-in is required, pages are for signed-in people only (401 otherwise).
  const denied = await requireReader().then(() => null, (err: unknown) => (err instanceof AccessError ? err.toResponse() : Promise.reject(err)));
  if (denied) return denied;
  const got = await pageImage(id, page, kind, RENDER_WAIT_MS).catch((err) => {
    console.error('[pages] could not render', id, page, err);
    return { failed: 'the page could not be rendered' };
  });
  if (!got) return new Response('Not found', { status: 404 });
  if (!('file' in got)) return placeholder(page, 'pending' in got ? 'pending' : 'failed');
  const body = await fs.promises.readFile(got.file);
  return new Response(new Uint8Array(body), {
    headers: {
      'content-type': kind === 'image' ? 'image/png' : 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(body.length),
    },
  });
}

/** A grey page with a caption; `x-page-image` says which, so the viewer (and tests) can tell. */
function placeholder(page: number, state: 'pending' | 'failed'): Response {
  const caption = state === 'pending' ? `Page ${page} is being prepared…` : `Page ${page} could not be displayed`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="612" height="792" viewBox="0 0 612 792"><rect width="612" height="792" fill="#f1f5f9"/><text x="306" y="396" font-family="sans-serif" font-size="20" fill="#64748b" text-anchor="middle">${caption}</text></svg>`;
  return new Response(svg, {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store', 'x-page-image': state, ...(state === 'pending' ? { 'retry-after': '2' } : {}) },
  });
}
