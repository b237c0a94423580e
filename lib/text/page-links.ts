/**
 * The app's links to a manual and its pages, in one place: the viewer (at a page, with a passage
 * highlighted), and the page's stored image, thumbnail and zoom renders. Manual ids are encoded
 * wherever they appear in a path.
 */

/** The manual's viewer page. */
export const manualLink = (manualId: string) => `/manuals/${encodeURIComponent(manualId)}`;

/** The viewer at `page`, with the passage `chunkId` highlighted when given. */
export function viewerLink(manualId: string, page: number, chunkId?: string): string {
  return `${manualLink(manualId)}?page=${page}${chunkId ? `&hl=${encodeURIComponent(chunkId)}` : ''}`;
}

/** A page's stored image, its thumbnail, or a zoom render at `scale`. */
export function pageImageLink(manualId: string, page: number, kind: 'image' | 'thumb' | { zoom: number }): string {
  const base = `${manualLink(manualId)}/pages/${page}`;
  return typeof kind === 'string' ? `${base}/${kind}` : `${base}/zoom?scale=${kind.zoom}`;
}
