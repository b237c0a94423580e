import fs from 'node:fs';
import { requireReader } from '../auth/access';
import { AccessError } from '../auth/roles';
import { getConfig } from '../config';
import { clientAddress } from '../config/network';
import { pageImage } from './page-images';
import { zoomImage, zoomScaleOf } from './page-zoom';

/** How long a request waits for a page that is not on disk yet before it gets the placeholder. */
const RENDER_WAIT_MS = 3000;

/**
 * Page-derived bytes are cached by the browser only: access is checked on every request, so no
 * shared cache (a proxy, a CDN) may keep them for the next person. Immutable, because a page of a
 * manual id never changes.
 */
const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

const validPage = (id: string, page: number) => /^[A-Za-z0-9-]{1,64}$/.test(id) && Number.isInteger(page) && page >= 1;

/**
 * The one access rule for every page-derived byte (image, thumbnail, zoom): where sign-in is
 * required, signed-in people only (401 otherwise); locally, whoever reaches the app. Null when
 * the request may read.
 */
async function readerDenied(): Promise<Response | null> {
  return requireReader().then(
    () => null,
    (err: unknown) => (err instanceof AccessError ? err.toResponse() : Promise.reject(err)),
  );
}

/** Who asks, for the per-client render cap (RENDERS_PER_CLIENT): the socket's address, or the trusted proxy's. */
const clientOf = (request: Request) => clientAddress(request.headers, getConfig().trustedProxies);

/** A refusal to render now that says nothing about the page: uncached, with when to try again. */
const busyResponse = () =>
  Response.json(
    { error: 'The server is busy rendering pages. Please try again in a moment.', code: 'busy' },
    { status: 503, headers: { 'cache-control': 'no-store', 'retry-after': '2' } },
  );

/** The file's bytes; null when it went between the check and the read (the zoom cache removed it). */
const readIfThere = (file: string) => fs.promises.readFile(file).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));

const png = (body: Buffer, type: string) =>
  new Response(new Uint8Array(body), { headers: { 'content-type': type, 'cache-control': PRIVATE_IMMUTABLE, 'content-length': String(body.length) } });

/**
 * Serves a page image with long-lived (private) caching. A page still being rendered (or that
 * cannot be) gets a small uncached placeholder instead of holding the request; the render goes on
 * in a PDF worker process.
 */
export async function pageImageResponse(request: Request, id: string, n: string, kind: 'image' | 'thumb'): Promise<Response> {
  const page = Number(n);
  if (!validPage(id, page)) return new Response('Not found', { status: 404 });
  const denied = await readerDenied();
  if (denied) return denied;
  const got = await pageImage(id, page, kind, RENDER_WAIT_MS, clientOf(request)).catch((err) => {
    console.error('[pages] could not render', id, page, err);
    return { failed: 'the page could not be rendered' };
  });
  if (!got) return new Response('Not found', { status: 404 });
  // Busy is shown like a render still under way: the viewer asks again.
  if (!('file' in got)) return placeholder(page, 'failed' in got ? 'failed' : 'pending');
  const body = await readIfThere(got.file);
  return body ? png(body, kind === 'image' ? 'image/png' : 'image/webp') : placeholder(page, 'pending');
}

/**
 * A page rendered sharper for zooming (`?scale=3` or `?scale=4.5`), rendered in a PDF worker on
 * first request. The viewer shows the stored image until it loads, so a page that cannot be
 * rendered is a plain 404 rather than a placeholder over it.
 */
export async function pageZoomResponse(request: Request, id: string, n: string, scaleParam: string | null): Promise<Response> {
  const page = Number(n);
  const scale = zoomScaleOf(scaleParam);
  if (!validPage(id, page) || !scale) return new Response('Not found', { status: 404 });
  const denied = await readerDenied();
  if (denied) return denied;
  const got = await zoomImage(id, page, scale, clientOf(request)).catch((err) => {
    console.error('[pages] could not render a zoomed page', id, page, err);
    return null;
  });
  if (got && 'busy' in got) return busyResponse();
  if (got && 'diskFull' in got) return Response.json({ error: got.diskFull, code: 'disk_full' }, { status: 507, headers: { 'cache-control': 'no-store' } });
  const body = got && 'file' in got ? await readIfThere(got.file) : null;
  if (!body) return got && 'file' in got ? busyResponse() : new Response('Not found', { status: 404, headers: { 'cache-control': 'no-store' } });
  return png(body, 'image/png');
}

/** A grey page with a caption; `x-page-image` says which, so the viewer (and tests) can tell. */
function placeholder(page: number, state: 'pending' | 'failed'): Response {
  const caption = state === 'pending' ? `Page ${page} is being prepared…` : `Page ${page} could not be displayed`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="612" height="792" viewBox="0 0 612 792"><rect width="612" height="792" fill="#f1f5f9"/><text x="306" y="396" font-family="sans-serif" font-size="20" fill="#64748b" text-anchor="middle">${caption}</text></svg>`;
  return new Response(svg, {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store', 'x-page-image': state, ...(state === 'pending' ? { 'retry-after': '2' } : {}) },
  });
}
