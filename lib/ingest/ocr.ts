/**
 * Offline OCR behind one small interface. The implementation is tesseract.js 7 (WebAssembly,
 * LSTM-only) with the English model from @tesseract.js-data/eng read from disk, so no network is
 * ever touched. tesseract.js-core is built without threads: each worker uses exactly one core, and
 * parallelism comes from a small pool of workers (min(2, cores) by default).
 */
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { IngestError, ingestErrors } from './errors';
import { meanConfidence } from './ocr-confidence';
import type { BBox } from './geometry';
import { packageRoot } from './pdfjs';

/** A recognised word; `bbox` is in pixels of the image that was passed in. */
export interface OcrWord {
  text: string;
  bbox: BBox;
  /** 0…100 as tesseract reports it. */
  confidence: number;
}

export interface OcrLine {
  text: string;
  bbox: BBox;
  confidence: number;
  words: OcrWord[];
}

export interface OcrResult {
  text: string;
  words: OcrWord[];
  lines: OcrLine[];
  /** Mean word confidence, 0…100 (0 when nothing was found). */
  confidence: number;
  ms: number;
}

/**
 * 'page': automatic layout (scanned text pages). 'sparse': find as much scattered text as
 * possible in no particular order (labels on diagrams and photos). 'block': one uniform block.
 */
export type OcrMode = 'page' | 'sparse' | 'block';

export interface OcrOptions {
  mode?: OcrMode;
  /** Resolution the image was rendered at, so tesseract does not have to guess it. */
  dpi?: number;
  /** Tesseract language codes for this image (default: the engine's configured languages). */
  languages?: string[];
  signal?: AbortSignal;
}

export interface OcrEngine {
  /** Engine + model, e.g. "tesseract.js-7/eng-4.0.0_best_int" (store it with OCR'd text). */
  readonly id: string;
  /** Which implementation: the native binary, the WebAssembly build, or PaddleOCR (figure labels). */
  readonly engine: 'tesseract' | 'tesseract.js' | 'paddleocr';
  /** Language models this engine can load (tesseract codes: eng, ces, chi_sim…). */
  readonly languages: readonly string[];
  /** How many images it recognises at once. */
  readonly concurrency: number;
  /** `image`: an encoded image (PNG, JPEG, or the PAM of raw pixels the pipeline sends: no decoding cost). */
  recognize(image: Buffer, opts?: OcrOptions): Promise<OcrResult>;
  /**
   * The writing system of the text in an image (tesseract's OSD names: Latin, Cyrillic, Han,
   * Arabic…), or null when it cannot tell. Only where the engine has the osd model.
   */
  detectScript?(image: Buffer, opts?: OcrOptions): Promise<{ script: string; confidence: number } | null>;
  terminate(): Promise<void>;
}

export interface TesseractEngineOptions {
  /** Pool size; default min(2, available cores). */
  workers?: number;
  /** Folder holding eng.traineddata(.gz); default: the best_int model inside @tesseract.js-data/eng. */
  langPath?: string;
}

const PSM_OF: Record<OcrMode, string> = { page: '3', sparse: '11', block: '6' };

export function defaultOcrWorkers(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(2, cores));
}

/** The LSTM "best_int" English model (~3 MB gz) shipped in @tesseract.js-data/eng. */
export function bundledEnglishModelDir(): string {
  return path.join(packageRoot('@tesseract.js-data/eng'), '4.0.0_best_int');
}

interface PoolWorker {
  worker: Tesseract.Worker;
  params: { psm?: string; dpi?: string };
}

interface Job {
  png: Buffer;
  opts: OcrOptions;
  resolve: (r: OcrResult) => void;
  reject: (e: unknown) => void;
}

export function createTesseractEngine(options: TesseractEngineOptions = {}): OcrEngine {
  const size = Math.max(1, options.workers ?? defaultOcrWorkers());
  const langPath = options.langPath ?? bundledEnglishModelDir();
  const idle: PoolWorker[] = [];
  const queue: Job[] = [];
  let started = 0;
  let terminated = false;
  const all: Array<Promise<PoolWorker>> = [];

  const spawn = (): Promise<PoolWorker> =>
    Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      // 'none': never read or write a traineddata cache (the default writes into the cwd).
      cacheMethod: 'none',
      logger: () => {},
      errorHandler: () => {},
    }).then(async (worker) => {
      // Tesseract prints notes ("Detected 145 diacritics", "Estimating resolution") to stdout.
      await worker.setParameters({ debug_file: '/dev/null' });
      return { worker, params: {} };
    });

  const run = async (pw: PoolWorker, job: Job) => {
    const t0 = performance.now();
    const psm = PSM_OF[job.opts.mode ?? 'page'];
    const dpi = job.opts.dpi ? String(Math.round(job.opts.dpi)) : undefined;
    // Parameters are per worker; only send them when this job needs different ones.
    const wanted: Partial<Tesseract.WorkerParams> = {};
    if (pw.params.psm !== psm) wanted.tessedit_pageseg_mode = psm as Tesseract.PSM;
    if (dpi && pw.params.dpi !== dpi) wanted.user_defined_dpi = dpi;
    if (Object.keys(wanted).length) {
      await pw.worker.setParameters(wanted);
      pw.params = { psm, dpi: dpi ?? pw.params.dpi };
    }
    const { data } = await pw.worker.recognize(job.png, {}, { text: true, blocks: true });
    return toResult(data, performance.now() - t0);
  };

  let spawning = 0;
  const dispatch = (pw: PoolWorker, job: Job) => {
    if (job.opts.signal?.aborted) {
      idle.push(pw);
      job.reject(job.opts.signal.reason ?? new Error('aborted'));
      return;
    }
    run(pw, job).then(
      (r) => {
        idle.push(pw);
        job.resolve(r);
        pump();
      },
      (err) => {
        idle.push(pw);
        job.reject(err instanceof IngestError ? err : ingestErrors.ocrFailed(String(err), err));
        pump();
      },
    );
  };

  const pump = () => {
    if (terminated) return;
    // Workers start lazily (loading the model costs ~0.5 s each) and only as many as jobs wait.
    while (started < size && queue.length > idle.length + spawning) {
      started++;
      spawning++;
      const p = spawn();
      all.push(p);
      p.then(
        (w) => {
          spawning--;
          idle.push(w);
          pump();
        },
        (err) => {
          spawning--;
          started--;
          // With no worker alive nothing can run the queue: fail it instead of hanging.
          if (started === 0) {
            for (const job of queue.splice(0)) job.reject(ingestErrors.ocrFailed(`could not start tesseract: ${String(err)}`, err));
          }
        },
      );
    }
    while (queue.length && idle.length) dispatch(idle.pop()!, queue.shift()!);
  };

  return {
    id: `tesseract.js-7/eng-${path.basename(langPath)}`,
    engine: 'tesseract.js',
    languages: ['eng'],
    concurrency: size,
    recognize(png, opts = {}) {
      if (terminated) return Promise.reject(new Error('OCR engine was terminated'));
      return new Promise<OcrResult>((resolve, reject) => {
        queue.push({ png, opts, resolve, reject });
        pump();
      });
    },
    async terminate() {
      terminated = true;
      for (const job of queue.splice(0)) job.reject(new Error('OCR engine was terminated'));
      const workers = await Promise.allSettled(all);
      await Promise.all(workers.map((w) => (w.status === 'fulfilled' ? w.value.worker.terminate().catch(() => {}) : undefined)));
    },
  };
}

const box = (b: Tesseract.Bbox): BBox => ({ x: b.x0, y: b.y0, w: b.x1 - b.x0, h: b.y1 - b.y0 });

function toResult(page: Tesseract.Page, ms: number): OcrResult {
  const lines: OcrLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        const words = line.words.filter((w) => w.text.trim().length > 0).map((w) => ({ text: w.text.trim(), bbox: box(w.bbox), confidence: w.confidence }));
        if (words.length === 0) continue;
        lines.push({ text: words.map((w) => w.text).join(' '), bbox: box(line.bbox), confidence: line.confidence, words });
      }
    }
  }
  const words = lines.flatMap((l) => l.words);
  return { text: page.text ?? lines.map((l) => l.text).join('\n'), words, lines, confidence: meanConfidence(words), ms };
}
