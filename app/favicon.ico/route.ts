/**
 * GET /favicon.ico — browsers still ask for it on pages that declare `/icon.svg` (a shared chat's
 * 404 check caught one); they get the app icon instead of a 404.
 */
export const GET = (request: Request) => Response.redirect(new URL('/icon.svg', request.url), 308);
