/** Page images on disk: written once per page at ingest (and by the PDF worker's on-demand renders). */
import fs from 'node:fs';
import path from 'node:path';
import { pageImagePath, pageThumbPath, tempPathFor } from './paths';
import { encodePageImages, encodePageImagesDownscaled, makeThumbnail, type RawImage } from './render';

async function writePageImages(manualId: string, page: number, png: Buffer, thumb?: Buffer): Promise<void> {
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

/**
 * writePageImages from raw pixels: PNG and thumbnail are encoded in parallel from the same pixels;
 * with `size`, `raw` is a sharper render of the whole page, downscaled to that preview size.
 */
export async function writePageImagesRaw(manualId: string, page: number, raw: RawImage, size?: { width: number; height: number }): Promise<void> {
  const { png, thumb } = size ? await encodePageImagesDownscaled(raw, size) : await encodePageImages(raw);
  await writePageImages(manualId, page, png, thumb);
}
