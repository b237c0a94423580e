/**
 * OCR with the `tesseract` binary (Debian's `tesseract-ocr`, Homebrew's `tesseract`) when it is on
 * PATH: one process per image, as many at once as there are cores, each held to one thread
 * (OMP_THREAD_LIMIT=1: tesseract's OpenMP threads only fight each other on a busy machine). The
 * image goes in on stdin (the PAM the pipeline renders: raw pixels, no encoding), TSV comes out on
 * stdout and is parsed into the same word + box shape as the tesseract.js engine.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestErrors } from './errors';
import type { OcrEngine, OcrLine, OcrMode, OcrOptions, OcrResult, OcrWord } from './ocr';
import { meanConfidence } from './ocr-confidence';

const PSM_OF: Record<OcrMode, string> = { page: '3', sparse: '11', block: '6' };

/** The first `tesseract` executable on PATH (or the given command when it is a path), else null. */
export function findTesseract(command = 'tesseract', envPath = process.env.PATH ?? ''): string | null {
  const isFile = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes(path.sep)) return isFile(command) ? command : null;
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

export interface NativeTesseractInfo {
  binary: string;
  /** e.g. "5.3.0" */
  version: string;
  /** Models installed (eng, ces, osd, …). */
  languages: string[];
}

const infoCache = new Map<string, NativeTesseractInfo | null>();

/** Version and installed models of a tesseract binary (asked once per process), or null when it does not run. */
export function nativeTesseractInfo(binary: string): NativeTesseractInfo | null {
  if (infoCache.has(binary)) return infoCache.get(binary)!;
  let info: NativeTesseractInfo | null = null;
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const langs = spawnSync(binary, ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
  if (version.status === 0 && langs.status === 0) {
    const v = /tesseract\s+v?([\d.]+)/i.exec(`${version.stdout}${version.stderr}`);
    const languages = `${langs.stdout}`
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter((l) => /^[\w_-]+$/.test(l));
    info = { binary, version: v?.[1] ?? 'unknown', languages };
  }
  infoCache.set(binary, info);
  return info;
}

export interface NativeEngineOptions {
  binary: string;
  /** Processes at once; default: available cores. */
  workers?: number;
  /** Tesseract language codes, joined with '+' (default eng). */
  languages?: string[];
  /** Per-image time limit (default 120 s): a hung process must not hold a job forever. */
  timeoutMs?: number;
}

export function createNativeTesseractEngine(options: NativeEngineOptions): OcrEngine {
  const info = nativeTesseractInfo(options.binary);
  if (!info) throw ingestErrors.ocrFailed(`${options.binary} does not run (tesseract --version failed)`);
  const size = Math.max(1, options.workers ?? os.availableParallelism());
  const languages = options.languages?.length ? options.languages : ['eng'];
  const timeoutMs = options.timeoutMs ?? 120_000;
  let running = 0;
  let terminated = false;
  const queue: Array<() => void> = [];
  const children = new Set<ReturnType<typeof spawn>>();

  const slot = async (): Promise<void> => {
    if (running < size) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };

  const recognizeArgs = (opts: OcrOptions) => {
    const args = ['stdin', 'stdout', '--psm', PSM_OF[opts.mode ?? 'page'], '-l', (opts.languages ?? languages).join('+')];
    if (opts.dpi) args.push('--dpi', String(Math.round(opts.dpi)));
    args.push('tsv');
    return args;
  };

  /** Runs tesseract on one image with `args`, parsing its stdout with `parse`. */
  const runOne = <T>(image: Buffer, args: string[], opts: OcrOptions, parse: (stdout: string, ms: number) => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(options.binary, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
      children.add(child);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const onAbort = () => child.kill('SIGKILL');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      // EPIPE when the process dies before reading all of stdin: the exit code says what happened.
      child.stdin.on('error', () => {});
      child.on('error', (e) => finish(() => reject(ingestErrors.ocrFailed(`could not run tesseract: ${e.message}`, e))));
      child.on('close', (code, sig) =>
        finish(() => {
          if (opts.signal?.aborted) reject(opts.signal.reason ?? new Error('aborted'));
          else if (code !== 0) {
            const why = sig ? `killed (${sig}${sig === 'SIGKILL' ? `, over ${timeoutMs} ms?` : ''})` : `exit ${code}`;
            reject(ingestErrors.ocrFailed(`tesseract ${why}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 300)}`));
          } else resolve(parse(Buffer.concat(out).toString('utf8'), performance.now() - t0));
        }),
      );
      let done = false;
      function finish(then: () => void) {
        if (done) return;
        done = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        children.delete(child);
        then();
      }
      child.stdin.end(image);
    });

  /** One tesseract run in a pool slot. */
  const pooled = async <T>(image: Buffer, args: string[], opts: OcrOptions, parse: (stdout: string, ms: number) => T): Promise<T> => {
    if (terminated) throw new Error('OCR engine was terminated');
    opts.signal?.throwIfAborted();
    await slot();
    try {
      if (terminated) throw new Error('OCR engine was terminated');
      opts.signal?.throwIfAborted();
      return await runOne(image, args, opts, parse);
    } finally {
      release();
    }
  };

  return {
    id: `tesseract-${info.version}/${languages.join('+')}`,
    engine: 'tesseract',
    concurrency: size,
    languages: info.languages.filter((l) => l !== 'osd'),
    recognize: (image, opts = {}) => pooled(image, recognizeArgs(opts), opts, parseTsv),
    // Orientation and script detection: needs the osd model (Debian installs it with tesseract-ocr).
    ...(info.languages.includes('osd')
      ? {
          detectScript: (image: Buffer, opts: OcrOptions = {}) =>
            pooled(image, ['stdin', 'stdout', '--psm', '0', ...(opts.dpi ? ['--dpi', String(Math.round(opts.dpi))] : [])], opts, parseOsd).catch(() => null),
        }
      : {}),
    async terminate() {
      terminated = true;
      for (const c of children) c.kill('SIGKILL');
      for (const wake of queue.splice(0)) wake();
    },
  };
}

/** The script line of tesseract's OSD output ("Script: Cyrillic"), null when it found none. */
function parseOsd(out: string): { script: string; confidence: number } | null {
  const script = /^Script:\s*(\S+)/m.exec(out)?.[1];
  if (!script) return null;
  return { script, confidence: Number(/^Script confidence:\s*([\d.]+)/m.exec(out)?.[1] ?? 0) };
}

/**
 * Tesseract's TSV: one row per element (level 1 page … 4 line, 5 word) with left/top/width/height
 * in pixels and the word's confidence. Words are grouped into lines by (block, paragraph, line).
 */
export function parseTsv(tsv: string, ms = 0): OcrResult {
  const lines: OcrLine[] = [];
  const paragraphs: string[][] = [];
  let current: OcrLine | null = null;
  let currentKey = '';
  let paraKey = '';
  for (const row of tsv.split('\n')) {
    const f = row.split('\t');
    if (f.length < 12 || f[0] === 'level') continue;
    const level = Number(f[0]);
    const bbox = { x: Number(f[6]), y: Number(f[7]), w: Number(f[8]), h: Number(f[9]) };
    const key = `${f[2]}.${f[3]}.${f[4]}`;
    if (level === 4) {
      current = { text: '', bbox, confidence: 0, words: [] };
      currentKey = key;
      continue;
    }
    if (level !== 5) continue;
    const text = f.slice(11).join('\t').trim();
    if (!text) continue;
    if (!current || currentKey !== key) {
      current = { text: '', bbox, confidence: 0, words: [] };
      currentKey = key;
    }
    const word: OcrWord = { text, bbox, confidence: Math.max(0, Number(f[10])) };
    if (current.words.length === 0) {
      lines.push(current);
      const pk = `${f[2]}.${f[3]}`;
      if (pk !== paraKey) {
        paragraphs.push([]);
        paraKey = pk;
      }
      paragraphs.at(-1)!.push(current.text);
    }
    current.words.push(word);
  }
  // Line text and confidence once all its words are in.
  let li = 0;
  for (const para of paragraphs) {
    for (let i = 0; i < para.length; i++) {
      const line = lines[li++];
      line.text = line.words.map((w) => w.text).join(' ');
      line.confidence = meanConfidence(line.words);
      para[i] = line.text;
    }
  }
  const words = lines.flatMap((l) => l.words);
  return { text: paragraphs.map((p) => p.join('\n')).join('\n\n'), words, lines, confidence: meanConfidence(words), ms };
}
