/**
 * Loads pdf.js (legacy build: the modern build needs browser APIs missing in Node 20) in a way
 * that works under vitest, tsx scripts and a Next.js server (pdfjs-dist is a serverExternalPackage).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { armDecodeGuard } from './decode-guard';

export type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    // Every stream pdf.js decodes is capped (decode-guard.ts): armed before it decodes one.
    armDecodeGuard();
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    // Node has no Web Workers, so pdf.js runs its worker code on this thread ("fake worker").
    // Handing it the worker module up front stops it from import()-ing "./pdf.worker.mjs" by a
    // relative URL at runtime, which breaks once a bundler has moved the calling code.
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return pdfjs;
  })();
  return loading;
}

export interface PdfjsAssets {
  standardFontDataUrl: string;
  cMapUrl: string;
  wasmUrl: string;
  iccUrl: string;
}

let assets: PdfjsAssets | undefined;

/**
 * Folders of the fonts, CMaps and wasm decoders that ship inside pdfjs-dist. In Node pdf.js reads
 * these "URLs" with fs, so they are plain directory paths ending in a separator. Without them,
 * documents using the 14 standard fonts or CJK CMaps extract and render wrongly.
 */
export function pdfjsAssets(): PdfjsAssets {
  if (assets) return assets;
  const root = packageRoot('pdfjs-dist');
  const dir = (name: string) => path.join(/*turbopackIgnore: true*/ root, name) + path.sep;
  assets = { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm'), iccUrl: dir('iccs') };
  return assets;
}

/** A package's folder: resolved from this module, else from the app's cwd (bundled server code). */
export function packageRoot(name: string): string {
  const bases: string[] = [];
  try {
    bases.push(import.meta.url);
  } catch {
    // import.meta may be rewritten by a bundler; the cwd base below still works.
  }
  bases.push(path.join(process.cwd(), 'package.json'));
  for (const base of bases) {
    try {
      const pkg = createRequire(base).resolve(`${name}/package.json`);
      return path.dirname(pkg);
    } catch {
      // try the next base
    }
  }
  const fallback = path.join(process.cwd(), 'node_modules', name);
  if (fs.existsSync(fallback)) return fallback;
  throw new Error(`Cannot locate the ${name} package folder`);
}
