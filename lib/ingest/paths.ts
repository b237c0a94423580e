/** Where a manual's files live. Upload names never reach these paths: only generated ids do. */
import path from 'node:path';
import { dataDir } from '../data-dir';

export const manualDir = (id: string) => dataDir('manuals', assertId(id));
export const manualSourcePath = (id: string) => path.join(manualDir(id), 'source.pdf');
export const pageImagePath = (id: string, page: number) => path.join(manualDir(id), 'pages', `${page}.png`);
export const pageThumbPath = (id: string, page: number) => path.join(manualDir(id), 'thumbs', `${page}.webp`);

function assertId(id: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new Error(`invalid manual id: ${JSON.stringify(id).slice(0, 80)}`);
  return id;
}
