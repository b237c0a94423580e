/**
 * OCR with the `tesseract` binary (Debian's `tesseract-ocr`, Homebrew's `tesseract`) when it is on
 * PATH: as many processes at once as there are cores, each held to one thread (OMP_THREAD_LIMIT=1:
 * tesseract's OpenMP threads only fight each other on a busy machine). An image goes in on stdin
 * (the PAM the pipeline renders: raw pixels, no encoding), TSV comes out on stdout and is parsed
 * into the same word + box shape as the tesseract.js engine.
 *
 * Small images waiting for a process (figure regions) are read several to a process: starting
 * tesseract and loading its model costs ~0.25 s of CPU, as much as reading a small figure. They go
 * in as files named in a list, and the TSV's page numbers tell their words apart; the words are
 * the same as one process per image gives.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AttemptResult, giveUpNote, type RetryPolicy, retryPolicy, withRetry } from '@/lib/providers/retry';
import { ingestErrors, isIngestError } from './errors';
import type { OcrEngine, OcrLine, OcrMode, OcrOptions, OcrResult, OcrWord } from './ocr';
import { meanConfidence } from './ocr-confidence';
import { pamLayout } from './render';

/**
 * Pixels of small images read by one process. Measured on the figures of a public board manual (9 regions,
 * 8.1 MP, `--psm 11`): one process each 5.6 s of CPU, all in one 3.7 s, the same words; starting a
 * process costs ~0.25 s of CPU and reading ~0.45 s per MP, so past ~4 MP the start is under a tenth
 * of a batch and a larger one only delays its first results and leaves the other process idle.
 * A scanned page at its reading scale (~2.5 MP) is thus read alone or with one small figure.
 */
const MAX_BATCH_PIXELS = 4_000_000;

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
  /**
   * Time limit of an image's attempt n (default 120 s × n): a hung process must not hold a job
   * forever, and one killed at its limit on a loaded machine gets longer the second time.
   */
  timeoutMs?: number | ((attempt: number) => number);
  /** How a failed process is retried (default: one retry after ~1 s). */
  retry?: Partial<RetryPolicy>;
}

/** One retry: a process killed at its deadline or by a crash usually reads the image the second time. */
const OCR_RETRY = { maxAttempts: 2, initialBackoffMs: 1_000 };

/** Spawn failures that pass (too many processes or open files, memory): the others mean tesseract cannot run. */
const TRANSIENT_SPAWN_CODES = new Set(['EAGAIN', 'EMFILE', 'ENFILE', 'ENOMEM']);

export function createNativeTesseractEngine(options: NativeEngineOptions): OcrEngine {
  const info = nativeTesseractInfo(options.binary);
  if (!info) throw ingestErrors.ocrFailed(`${options.binary} does not run (tesseract --version failed)`);
  const size = Math.max(1, options.workers ?? os.availableParallelism());
  const languages = options.languages?.length ? options.languages : ['eng'];
  const limitOf = (attempt: number) => {
    const t = options.timeoutMs ?? 120_000;
    return typeof t === 'function' ? t(attempt) : t * attempt;
  };
  const policy = retryPolicy({ ...OCR_RETRY, ...options.retry });
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

  /**
   * One tesseract process with `args` (the image on stdin, if given), its stdout parsed with `parse`.
   * A failure is transient when the process was killed (its deadline, a crash, the OOM killer) or
   * could not be started for want of resources; a non-zero exit (an image it cannot read) or a
   * missing binary is not. An abort rejects.
   */
  const attemptOne = <T>(
    image: Buffer | null,
    args: string[],
    opts: OcrOptions,
    parse: (stdout: string, ms: number) => T,
    limitMs: number,
  ): Promise<AttemptResult<T>> =>
    new Promise<AttemptResult<T>>((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(options.binary, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
      children.add(child);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, limitMs);
      const onAbort = () => child.kill('SIGKILL');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      // EPIPE when the process dies before reading all of stdin: the exit code says what happened.
      child.stdin.on('error', () => {});
      child.on('error', (e: NodeJS.ErrnoException) =>
        finish(() =>
          resolve({
            ok: false,
            cause: ingestErrors.ocrFailed(`could not run tesseract: ${e.message}`, e),
            transient: TRANSIENT_SPAWN_CODES.has(e.code ?? ''),
          }),
        ),
      );
      child.on('close', (code, sig) =>
        finish(() => {
          const ms = Math.round(performance.now() - t0);
          if (opts.signal?.aborted) reject(opts.signal.reason ?? new Error('aborted'));
          else if (terminated) reject(new Error('OCR engine was terminated'));
          else if (code !== 0) {
            const why = timedOut ? `killed at its ${limitMs} ms deadline` : sig ? `killed by ${sig} after ${ms} ms` : `exit ${code}`;
            const stderr = Buffer.concat(err).toString('utf8').trim().slice(0, 300);
            resolve({ ok: false, cause: ingestErrors.ocrFailed(`tesseract ${why}${stderr ? `: ${stderr}` : ''}`), transient: timedOut || sig !== null });
          } else resolve({ ok: true, value: parse(Buffer.concat(out).toString('utf8'), performance.now() - t0) });
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
      child.stdin.end(image ?? undefined);
    });

  /** `attemptOne` under the retry policy, the limit growing with the attempt; the cause of each failure is logged. */
  const runOne = async <T>(image: Buffer | null, args: string[], opts: OcrOptions, parse: (stdout: string, ms: number) => T): Promise<T> => {
    let last: unknown;
    return withRetry(
      policy,
      async (n) => {
        const result = await attemptOne(image, args, opts, parse, limitOf(n));
        if (!result.ok) last = result.cause;
        return result;
      },
      {
        signal: opts.signal,
        onRetry: ({ delayMs }, n) => console.warn(`[ocr] attempt ${n} failed, retrying in ${delayMs} ms: ${detailOf(last)}`),
        giveUp: ({ cause }, decision, n) =>
          decision.why === 'permanent' ? cause : ingestErrors.ocrFailed(`${detailOf(cause)}${giveUpNote(decision, cause, n)}`, cause),
      },
    );
  };

  /**
   * Several images in one process: written to files named in a list, which tesseract reads as a
   * multi-page input; the TSV's page_num column says whose words are whose. A batch that fails is
   * read again one image at a time, so one bad image fails only itself.
   */
  const runBatch = async (jobs: SmallJob[]): Promise<void> => {
    if (jobs.length === 1) {
      const [job] = jobs;
      await runOne(job.image, job.args, job.opts, parseTsv).then(job.resolve, job.reject);
      return;
    }
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'mc-ocr-'));
    try {
      const files = jobs.map((_, i) => path.join(dir, `${i + 1}.pam`));
      await Promise.all(jobs.map((job, i) => fs.promises.writeFile(files[i], job.image)));
      const list = path.join(dir, 'images.txt');
      await fs.promises.writeFile(list, `${files.join('\n')}\n`);
      const [, , ...rest] = jobs[0].args;
      // One attempt: a batch that fails is read again one image at a time, each with its own retry.
      const attempt = await attemptOne(
        null,
        [list, 'stdout', ...rest],
        jobs[0].opts,
        (out, ms) => splitTsvPages(out, jobs.length).map((tsv) => parseTsv(tsv, ms)),
        limitOf(1) * jobs.length,
      ).catch((err: unknown) => (jobs[0].opts.signal?.aborted ? Promise.reject(err) : null));
      if (attempt && !attempt.ok) console.warn(`[ocr] a batch of ${jobs.length} images failed, reading them one at a time: ${detailOf(attempt.cause)}`);
      const results = attempt?.ok ? attempt.value : null;
      if (results) jobs.forEach((job, i) => job.resolve(results[i]));
      else if (terminated) throw new Error('OCR engine was terminated');
      else for (const job of jobs) await runOne(job.image, job.args, job.opts, parseTsv).then(job.resolve, job.reject);
    } catch (err) {
      for (const job of jobs) job.reject(err);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  };

  /** Small images waiting for a process; each one queued starts one `drain`, which may take several. */
  const small: SmallJob[] = [];
  const drain = async () => {
    await slot();
    try {
      if (terminated || !small.length) return;
      // Shared with the processes that are idle now, so a batch never leaves one of them without work.
      const share = Math.ceil(small.length / (size - running + 1));
      const first = small.shift()!;
      const batch = [first];
      let pixels = first.pixels;
      for (let i = 0; i < small.length && batch.length < share;) {
        const job = small[i];
        if (job.key === first.key && job.opts.signal === first.opts.signal && pixels + job.pixels <= MAX_BATCH_PIXELS) {
          batch.push(job);
          pixels += job.pixels;
          small.splice(i, 1);
        } else i++;
      }
      const live = batch.filter((job) => {
        if (!job.opts.signal?.aborted) return true;
        job.reject(job.opts.signal.reason ?? new Error('aborted'));
        return false;
      });
      if (live.length) await runBatch(live);
    } finally {
      release();
    }
  };

  const recognize = (image: Buffer, opts: OcrOptions = {}): Promise<OcrResult> => {
    const pam = pamLayout(image);
    const pixels = pam ? pam.width * pam.height : Infinity;
    if (pixels > MAX_BATCH_PIXELS) return pooled(image, recognizeArgs(opts), opts, parseTsv);
    if (terminated) return Promise.reject(new Error('OCR engine was terminated'));
    try {
      opts.signal?.throwIfAborted();
    } catch (err) {
      return Promise.reject(err);
    }
    const args = recognizeArgs(opts);
    return new Promise<OcrResult>((resolve, reject) => {
      small.push({ image, args, key: args.join(' '), opts, pixels, resolve, reject });
      void drain();
    });
  };

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
    recognize,
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
      for (const job of small.splice(0)) job.reject(new Error('OCR engine was terminated'));
      for (const wake of queue.splice(0)) wake();
    },
  };
}

interface SmallJob {
  image: Buffer;
  args: string[];
  /** Jobs with the same arguments can share a process. */
  key: string;
  opts: OcrOptions;
  pixels: number;
  resolve: (r: OcrResult) => void;
  reject: (e: unknown) => void;
}

/** The low-level cause of an OCR failure, for the log. */
function detailOf(err: unknown): string {
  if (isIngestError(err)) return err.detail ?? err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The TSV of a multi-image run cut into one TSV per image, by its page_num column (1-based, in the
 * order of the list); an image with no rows gets an empty TSV.
 */
export function splitTsvPages(tsv: string, pages: number): string[] {
  const rows: string[][] = Array.from({ length: pages }, () => []);
  for (const row of tsv.split('\n')) {
    const f = row.split('\t', 3);
    const page = Number(f[1]);
    if (f.length < 3 || !Number.isInteger(page) || page < 1 || page > pages) continue;
    rows[page - 1].push(row);
  }
  return rows.map((r) => r.join('\n'));
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
