/**
 * Page images on disk, regenerated from the source PDF when missing (a cleaned cache, a restore
 * from backup without images…), so a page link never breaks while the PDF exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getManual } from '../store/manuals';
import { pageImagePath, pageThumbPath, manualSourcePath, tempPathFor } from './paths';
import { openPdf } from './pdf';
import { encodePageImages, makeThumbnail, PAGE_SCALE, type RawImage } from './render';

export async function writePageImages(manualId: string, page: number, png: Buffer, thumb?: Buffer): Promise<void> {
  const imagePath = pageImagePath(manualId, page);
  const thumbPath = pageThumbPath(manualId, page);
  fs.mkdirSync(path.dirname(imagePath), { recursive: true });
  fs.mkdirSync(path.dirname(thumbPath), { recursive: true });
  // Write to a temp name of our own then rename: a reader never sees half a file, and two
  // servers rendering the same page at once (FILES_DIR shared) never write into one temp file.
  const imageTmp = tempPathFor(imagePath);
  await fs.promises.writeFile(imageTmp, png);
  await fs.promises.rename(imageTmp, imagePath);
  const thumbTmp = tempPathFor(thumbPath);
  await fs.promises.writeFile(thumbTmp, thumb ?? (await makeThumbnail(png)));
  await fs.promises.rename(thumbTmp, thumbPath);
}

/** writePageImages from raw pixels: PNG and thumbnail are encoded in parallel from the same pixels. */
export async function writePageImagesRaw(manualId: string, page: number, raw: RawImage): Promise<void> {
  const { png, thumb } = await encodePageImages(raw);
  await writePageImages(manualId, page, png, thumb);
}

/** Path of the page PNG or WebP thumbnail, rendering it first if needed; null if no such page. */
export async function ensurePageImage(manualId: string, page: number, kind: 'image' | 'thumb'): Promise<string | null> {
  const target = kind === 'image' ? pageImagePath(manualId, page) : pageThumbPath(manualId, page);
  if (fs.existsSync(target)) return target;
  const manual = await getManual(manualId);
  if (!manual || !manual.pageCount || page < 1 || page > manual.pageCount) return null;
  const source = manualSourcePath(manualId);
  if (!fs.existsSync(source)) return null;
  const doc = await openPdf(new Uint8Array(await fs.promises.readFile(source)), { password: manual.password ?? undefined, maxBytes: Infinity, maxPages: Infinity });
  try {
    await writePageImagesRaw(manualId, page, await doc.renderPageRaw(page, { scale: PAGE_SCALE }));
  } finally {
    await doc.close();
  }
  return target;
}
