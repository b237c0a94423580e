/**
 * GET /favicon.ico — browsers still ask for it on pages that declare `/icon.svg` (a shared chat's
 * 404 check caught one); they get the app icon instead of a 404. The redirect is relative: the
 * server's own idea of its URL ("localhost") may not be the origin the browser used, and the icon
 * from another origin breaks the page's CSP.
 */
export const GET = () => new Response(null, { status: 308, headers: { Location: '/icon.svg' } });
