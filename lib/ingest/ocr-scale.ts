/**
 * The resolution a scanned page is read at, chosen from the height of its own text. Every scanned
 * page is drawn at the plan's scale (3×, 216 dpi: right for small print); a page whose letters
 * are larger than tesseract needs is then shrunk (sharp, off the JS thread) before it is read, so
 * the engine spends its time on fewer pixels. Never enlarged: the plan's scale is the cap.
 *
 * Text height is measured on the render itself: the connected components of its dark pixels
 * (ink blobs, roughly one per glyph), and the 75th percentile of their heights, which is the
 * capital / ascender height whether the text is mixed case or all capitals (the x-height-only
 * letters are the lower ~60 % of the glyphs of mixed-case text). Chosen over the alternatives
 * because it needs no second draw (drawing a scan costs ~0.2 s of the JS thread at any scale,
 * decoding the image dominates) and no second recognition (reading the page once at 3× to learn
 * its word heights is the cost this saves).
 */
import sharp from 'sharp';
import type { RawImage } from './render';

/**
 * Capital-letter height (pixels) a page is brought down to. Tesseract's documentation
 * (tessdoc ImproveQuality.md, "Rescaling", and its FAQ on text size) gives the range: accuracy
 * drops below 10 pt at 300 dpi, where the x-height is about 20 px and capitals ~28 px, and falls
 * fast below an x-height of 10 px; the test it cites (Willus Dotkom,
 * https://willus.org/author/entries/tesseract_accuracy.html) finds a sweet spot at capitals of
 * about 30 px with a slow decline below it. On the public scans (docs/benchmarks.md), capitals
 * read at 20 px kept word F1 and 16 px lost it on the smallest print, so
 * pages are brought down to 20 px and no lower.
 */
export const TARGET_CAP_HEIGHT_PX = 20;

/** Lowest scale a page is read at, whatever its text height (144 dpi; the lowest measured on the public scans). */
export const MIN_PAGE_SCALE = 2;

/** Shrinks of less than this are not worth a resize (and a resampling of the page). */
const MIN_SHRINK = 0.9;

/** Fewer glyph-sized blobs than this: not a text page (a photo, a blank), so its scale stays. */
const MIN_GLYPHS = 40;

/**
 * Capital / ascender height of the text of a render, in its pixels (75th percentile of the
 * heights of its ink blobs of glyph size), or null when it holds too little text to say.
 * Counted on every `step`-th pixel of every `step`-th row (a 3× render is sampled at 1.5×, where
 * body text is still 10+ samples tall): a quarter of the pixels for the JS thread to visit.
 */
export function measureCapHeight(raw: Pick<RawImage, 'data' | 'width' | 'height'>, step = 2): number | null {
  const w = Math.ceil(raw.width / step);
  const h = Math.ceil(raw.height / step);
  const ink = inkMask(raw, step, w, h);
  // Glyph-sized: specks, dots and diacritics are a few pixels tall (under 1/600 of the page);
  // rules, frames and pictures are taller than 1/15 of it.
  const minH = Math.max(2, Math.round(h / 600));
  const maxH = Math.round(h / 15);
  const heights = blobHeights(ink, w, h).filter((x) => x >= minH && x <= maxH);
  if (heights.length < MIN_GLYPHS) return null;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length * 0.75)] * step;
}

/** The scale to read a page at, given its render's scale and the cap height measured on it (never above the render's scale). */
export function readingScale(renderScale: number, capHeightPx: number | null): number {
  if (!capHeightPx) return renderScale;
  const wanted = (renderScale * TARGET_CAP_HEIGHT_PX) / capHeightPx;
  const scale = Math.min(renderScale, Math.max(MIN_PAGE_SCALE, wanted));
  return scale / renderScale >= MIN_SHRINK ? renderScale : scale;
}

/**
 * A whole-page render at the scale its text needs (readingScale): the render itself when that is
 * its own scale, else a copy shrunk by sharp on the libuv pool, with its actual scale.
 */
export async function atReadingScale(raw: RawImage): Promise<RawImage> {
  const scale = readingScale(raw.scale, measureCapHeight(raw));
  if (scale === raw.scale) return raw;
  const width = Math.max(1, Math.round((raw.width * scale) / raw.scale));
  const height = Math.max(1, Math.round((raw.height * scale) / raw.scale));
  const data = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, width, height, scale: (raw.scale * width) / raw.width };
}

/** Dark pixels of an RGBA image sampled every `step` pixels (1 = ink), split at the Otsu threshold of the green channel (paper may be grey or yellowed). */
function inkMask(raw: Pick<RawImage, 'data' | 'width' | 'height'>, step: number, w: number, h: number): Uint8Array {
  const { data, width } = raw;
  const green = new Uint8Array(w * h);
  const hist = new Float64Array(256);
  for (let y = 0, p = 0; y < h; y++) {
    for (let x = 0, i = y * step * width * 4 + 1; x < w; x++, p++, i += step * 4) {
      green[p] = data[i];
      hist[data[i]]++;
    }
  }
  const threshold = otsu(hist, w * h);
  for (let p = 0; p < green.length; p++) green[p] = green[p] < threshold ? 1 : 0;
  return green;
}

function otsu(hist: Float64Array, total: number): number {
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * hist[v];
  let wB = 0,
    sumB = 0,
    best = 0,
    threshold = 128;
  for (let v = 0; v < 256; v++) {
    wB += hist[v];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += v * hist[v];
    const between = wB * wF * (sumB / wB - (sumAll - sumB) / wF) ** 2;
    if (between > best) {
      best = between;
      threshold = v + 1;
    }
  }
  return threshold;
}

/**
 * Heights of the 8-connected ink blobs, by runs: each row's runs of ink are joined to the runs of
 * the row above that touch them (union-find over runs), so the cost follows the ink, not the page.
 */
function blobHeights(ink: Uint8Array, w: number, h: number): number[] {
  // At most one run per two pixels of a row.
  const maxRuns = Math.ceil((w * h) / 2) + h;
  const parent = new Int32Array(maxRuns);
  const top = new Int32Array(maxRuns);
  const bottom = new Int32Array(maxRuns);
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]];
    return a;
  };
  let runs = 0;
  // Runs of the row above and of this row: [start, end] and run id, in order.
  let prev = new Int32Array(3 * (Math.ceil(w / 2) + 1));
  let cur = new Int32Array(prev.length);
  let prevCount = 0;
  for (let y = 0; y < h; y++) {
    const base = y * w;
    let count = 0;
    let j = 0;
    for (let x = 0; x < w;) {
      if (!ink[base + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < w && ink[base + x]) x++;
      const id = runs++;
      parent[id] = id;
      top[id] = y;
      bottom[id] = y;
      // Runs above touching [start - 1, x] (8-connected); both rows are in order, so scan on from j.
      while (j < prevCount && prev[3 * j + 1] < start - 1) j++;
      let root = id;
      for (let k = j; k < prevCount && prev[3 * k] <= x; k++) {
        const a = find(prev[3 * k + 2]);
        if (a === root) continue;
        parent[root] = a;
        top[a] = Math.min(top[a], top[root]);
        bottom[a] = y;
        root = a;
      }
      cur[3 * count] = start;
      cur[3 * count + 1] = x - 1;
      cur[3 * count + 2] = id;
      count++;
    }
    [prev, cur] = [cur, prev];
    prevCount = count;
  }
  const out: number[] = [];
  for (let i = 0; i < runs; i++) if (parent[i] === i) out.push(bottom[i] - top[i] + 1);
  return out;
}
