/**
 * Measures retrieval strategies on the real manuals to choose the offline embedder, the
 * multi-vector pooling and the hybrid weights (the providers issue). Not a test: it reads
 * ../shared/manuals and ../shared/eval/dev-qa.jsonl and prints page-level Recall@1/3/5 and MRR.
 *
 *   npx tsx scripts/measure-embedders.ts [--ocr] [--json] [--manuals DIR] [--qa FILE] [--quick]
 *
 * --ocr   OCR pages without a text layer (tesseract.js + bundled eng data; ~3 s/page), as the
 *         ingest pipeline does, so the scanned manual is searchable too. Cached in the OS temp dir.
 * --quick only the shipped configuration of each strategy (no grid).
 * --seeds N             hash seeds to average each hashed variant over (default 5).
 * --allow-download      let transformers.js fetch the configured model if it is not on disk.
 *
 * transformers.js is measured too when its model is on disk (EMBEDDING_MODEL_DIR, EMBEDDING_MODEL
 * as a folder, or DATA_DIR/models/<id>).
 *
 * Retrieval is global: every page of every manual competes, as in the app without a filter.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HashedNgramEmbedder, type HashedNgramOptions } from '../lib/providers/embeddings/hashed-ngrams';
import { simpleTokens } from '../lib/providers/embeddings/text';
import { maxSim } from '../lib/providers/multivector/maxsim';
import { poolVectors, type Linkage } from '../lib/providers/multivector/pooling';
import { DEFAULT_TRANSFORMERS_MODEL } from '../lib/providers/config';
import type { TokenVectorSource } from '../lib/providers/embeddings/token-vectors';
import type { TransformersEmbedder } from '../lib/providers/embeddings/transformers';
import { DEFAULT_MAX_VECTORS_PER_PAGE, OFFLINE_MAX_VECTORS_PER_PAGE } from '../lib/providers/multivector/local';
import type { Embedder } from '../lib/providers/types';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '..');

// --- arguments -----------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const MANUALS_DIR = path.resolve(option('--manuals', path.join(ROOT, '..', 'shared', 'manuals')));
const QA_FILE = path.resolve(option('--qa', path.join(ROOT, '..', 'shared', 'eval', 'dev-qa.jsonl')));
const WITH_OCR = flag('--ocr');
const JSON_OUT = flag('--json');
const QUICK = flag('--quick');
const log = (...a: unknown[]) => {
  if (!JSON_OUT) console.log(...a);
};

// --- pages ---------------------------------------------------------------------------------------
interface Page {
  manual: string;
  page: number;
  text: string;
  ocr: boolean;
}

async function extractPages(): Promise<Page[]> {
  const files = fs.readdirSync(MANUALS_DIR).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
  const digest = createHash('sha256');
  for (const f of files) digest.update(f).update(String(fs.statSync(path.join(MANUALS_DIR, f)).size));
  const cacheFile = path.join(os.tmpdir(), `mc-measure-pages-${digest.digest('hex').slice(0, 12)}${WITH_OCR ? '-ocr' : ''}.json`);
  if (fs.existsSync(cacheFile)) return JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Page[];

  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));
  const pages: Page[] = [];
  let ocrWorker: { recognize(img: Buffer): Promise<{ data: { text: string } }>; terminate(): Promise<unknown> } | undefined;
  for (const file of files) {
    const data = new Uint8Array(fs.readFileSync(path.join(MANUALS_DIR, file)));
    const doc = await pdfjs.getDocument({
      data,
      standardFontDataUrl: path.join(pdfjsDir, 'standard_fonts') + path.sep,
      cMapUrl: path.join(pdfjsDir, 'cmaps') + path.sep,
      cMapPacked: true,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : ' ');
      }
      text = text.replace(/[ \t]+/g, ' ').trim();
      let ocr = false;
      if (WITH_OCR && text.replace(/\s/g, '').length < 20) {
        if (!ocrWorker) {
          const { createWorker } = await import('tesseract.js');
          const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
          ocrWorker = await createWorker('eng', 1, { langPath: eng.langPath, gzip: eng.gzip, cachePath: os.tmpdir() });
        }
        const viewport = page.getViewport({ scale: 2.5 });
        const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: { toBuffer(t: string): Buffer }; context: unknown } } }).canvasFactory;
        const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
        await page.render({ canvasContext: context as CanvasRenderingContext2D, viewport, canvas: canvas as unknown as HTMLCanvasElement }).promise;
        const t0 = Date.now();
        const result = await ocrWorker.recognize(canvas.toBuffer('image/png'));
        text = result.data.text.replace(/[ \t]+/g, ' ').trim();
        ocr = true;
        log(`  OCR ${file} p${n}: ${text.length} chars in ${Date.now() - t0} ms`);
      }
      pages.push({ manual: file, page: n, text, ocr });
    }
    await doc.destroy();
  }
  await ocrWorker?.terminate();
  fs.writeFileSync(cacheFile, JSON.stringify(pages));
  return pages;
}

// --- eval set ------------------------------------------------------------------------------------
interface Question {
  id: string;
  manual: string;
  question: string;
  pages: number[];
  kind: string;
}

function loadQuestions(): Question[] {
  return fs
    .readFileSync(QA_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Question)
    .filter((q) => q.pages.length > 0);
}

interface Metrics {
  r1: number;
  r3: number;
  r5: number;
  mrr: number;
}

/** Rank of the first expected page (1-based) or 0; `ranking` lists page indices best first. */
function firstHitRank(q: Question, ranking: number[], pages: Page[]): number {
  for (let r = 0; r < ranking.length; r++) {
    const p = pages[ranking[r]];
    if (p.manual === q.manual && q.pages.includes(p.page)) return r + 1;
  }
  return 0;
}

function metricsOf(ranks: number[]): Metrics {
  const n = ranks.length;
  const at = (k: number) => ranks.filter((r) => r > 0 && r <= k).length / n;
  return { r1: at(1), r3: at(3), r5: at(5), mrr: ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / n };
}

function rankScores(scores: Float64Array | number[]): number[] {
  return Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a]);
}

// --- BM25 ------------------------------------------------------------------------------------
class Bm25 {
  private readonly tf: Map<string, number>[];
  private readonly len: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLen: number;

  constructor(docs: string[], private readonly k1 = 1.2, private readonly b = 0.75) {
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of simpleTokens(d)) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    this.len = this.tf.map((m) => [...m.values()].reduce((a, c) => a + c, 0));
    for (const m of this.tf) for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.avgLen = this.len.reduce((a, c) => a + c, 0) / Math.max(1, docs.length);
  }

  scores(query: string): Float64Array {
    const n = this.tf.length;
    const out = new Float64Array(n);
    for (const t of new Set(simpleTokens(query))) {
      const df = this.df.get(t);
      if (!df) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < n; i++) {
        const f = this.tf[i].get(t);
        if (!f) continue;
        out[i] += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * this.len[i]) / this.avgLen));
      }
    }
    return out;
  }
}

// --- chunking for dense ------------------------------------------------------------------------
/** ~200-token windows (whitespace tokens) with 50 tokens of overlap, as the ingest chunker aims for. */
function chunkPage(text: string, size = 200, overlap = 50): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= size) return [words.join(' ')];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size - overlap) {
    out.push(words.slice(i, i + size).join(' '));
    if (i + size >= words.length) break;
  }
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

// --- fusion --------------------------------------------------------------------------------------
/** Min-max over all pages (0..1); a leg with no spread contributes nothing. */
function minMax(s: Float64Array): Float64Array {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of s) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const out = new Float64Array(s.length);
  if (hi - lo <= 1e-12) return out;
  for (let i = 0; i < s.length; i++) out[i] = (s[i] - lo) / (hi - lo);
  return out;
}

/** Relative score fusion (Weaviate's default hybrid): alpha * dense + (1 - alpha) * bm25, both min-max. */
function relativeFusion(bm25: Float64Array, dense: Float64Array, alpha: number): Float64Array {
  const a = minMax(bm25);
  const d = minMax(dense);
  return a.map((v, i) => (1 - alpha) * v + alpha * d[i]);
}

/** Reciprocal rank fusion (LanceDB's hybrid reranker): sum of w / (k + rank). */
function rrf(legs: Array<{ scores: Float64Array; weight: number }>, k = 60): Float64Array {
  const out = new Float64Array(legs[0].scores.length);
  for (const { scores, weight } of legs) {
    const ranking = rankScores(scores);
    ranking.forEach((idx, r) => {
      out[idx] += weight / (k + r + 1);
    });
  }
  return out;
}

// --- main ---------------------------------------------------------------------------------------
interface Row {
  strategy: string;
  /** All pages of all manuals compete. */
  metrics: Metrics;
  /** Ranking restricted to the question's manual (a manual filter in the UI). */
  inManual: Metrics;
  note?: string;
}

function rowOf(strategy: string, questions: Question[], pages: Page[], scoreFn: (q: Question) => Float64Array, note?: string): Row {
  const global: number[] = [];
  const scoped: number[] = [];
  for (const q of questions) {
    const ranking = rankScores(scoreFn(q));
    global.push(firstHitRank(q, ranking, pages));
    scoped.push(firstHitRank(q, ranking.filter((i) => pages[i].manual === q.manual), pages));
  }
  return { strategy, metrics: metricsOf(global), inManual: metricsOf(scoped), note };
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

/** Average rows over hash seeds: collisions are random, so one seed alone is a noisy draw. */
function averageRows(strategy: string, rows: Row[], note?: string): Row {
  const avg = (pick: (r: Row) => Metrics): Metrics => ({
    r1: mean(rows.map((r) => pick(r).r1)),
    r3: mean(rows.map((r) => pick(r).r3)),
    r5: mean(rows.map((r) => pick(r).r5)),
    mrr: mean(rows.map((r) => pick(r).mrr)),
  });
  const mrrs = rows.map((r) => r.metrics.mrr);
  const sd = Math.sqrt(mean(mrrs.map((m) => (m - mean(mrrs)) ** 2)));
  const seedNote = rows.length > 1 ? `${rows.length} seeds, MRR sd ${sd.toFixed(3)}` : undefined;
  return { strategy, metrics: avg((r) => r.metrics), inManual: avg((r) => r.inManual), note: [note, seedNote].filter(Boolean).join('; ') || undefined };
}

type Scores = Map<string, Float64Array>;

async function main() {
  if (argv[0] === '--probe') return probe();
  const t0 = Date.now();
  const pages = await extractPages();
  const questions = loadQuestions();
  const SEEDS = Number(option('--seeds', QUICK ? '1' : '5'));
  log(
    `${pages.length} pages from ${new Set(pages.map((p) => p.manual)).size} manuals (${pages.filter((p) => p.ocr).length} OCR), ` +
      `${questions.length} answerable questions, extracted in ${Date.now() - t0} ms; hashed variants averaged over ${SEEDS} hash seeds`,
  );
  const rows: Row[] = [];
  const emit = (row: Row) => {
    rows.push(row);
    log(fmtRow(row));
    return row;
  };
  log(`${'strategy'.padEnd(52)} ${'all manuals: R@1  R@3   R@5   MRR'.padEnd(34)} | within the manual: R@1 R@3 R@5 MRR`);

  // BM25 over pages.
  const bm25 = new Bm25(pages.map((p) => p.text));
  const bm25Scores: Scores = new Map(questions.map((q) => [q.id, bm25.scores(q.question)]));
  const bm25Row = emit(rowOf('bm25 (pages)', questions, pages, (q) => bm25Scores.get(q.id)!));

  // Dense: page score = best chunk cosine.
  const chunks: Array<{ page: number; text: string }> = [];
  pages.forEach((p, i) => {
    for (const text of chunkPage(p.text)) chunks.push({ page: i, text });
  });
  log(`${chunks.length} chunks (~200 tokens)`);
  const denseScoresOf = (embed: (t: string) => Float32Array, embedQuery = embed): Scores =>
    denseScoresFromVectors(
      chunks.map((c) => embed(c.text)),
      questions.map((q) => embedQuery(q.question)),
    );
  const denseScoresFromVectors = (vecs: Float32Array[], queryVecs: Float32Array[]): Scores => {
    return new Map(
      questions.map((q, qi) => {
        const qv = queryVecs[qi];
        const s = new Float64Array(pages.length).fill(-1);
        chunks.forEach((c, i) => {
          const v = dot(qv, vecs[i]);
          if (v > s[c.page]) s[c.page] = v;
        });
        return [q.id, s] as const;
      }),
    );
  };
  const mvScoresOf = (e: HashedNgramEmbedder, max: number, linkage: Linkage) => {
    const tp = Date.now();
    const bags = pages.map((p) => {
      const { vectors } = e.tokenVectorsSync(p.text);
      return Number.isFinite(max) ? poolVectors(vectors, max, { linkage }) : vectors;
    });
    const msPerPage = (Date.now() - tp) / pages.length;
    const scores: Scores = new Map(
      questions.map((q) => {
        const qv = e.tokenVectorsSync(q.question).vectors;
        return [q.id, Float64Array.from(bags.map((b) => maxSim(qv, b)))] as const;
      }),
    );
    return { scores, msPerPage, avgVectors: mean(bags.map((b) => b.length)) };
  };

  const shipped = new HashedNgramEmbedder();
  const denseVariants: Array<[string, Partial<HashedNgramOptions>]> = QUICK
    ? [['hashed 3-5 grams, d768 (shipped)', {}]]
    : [
        ['hashed words only, d768', { wordWeight: 1, ngramWeight: 0 }],
        ['hashed 3-5 grams + words, d768', { wordWeight: 1 }],
        ['hashed 3-5 grams + words x0.5, d768', { wordWeight: 0.5 }],
        ['hashed 3-5 grams, d768 (shipped)', {}],
        ['hashed 2-4 grams, d768', { minN: 2, maxN: 4 }],
        ['hashed 3-4 grams, d768', { minN: 3, maxN: 4 }],
        ['hashed 3-6 grams, d768', { minN: 3, maxN: 6 }],
        ['hashed 4-5 grams, d768', { minN: 4, maxN: 5 }],
        ['hashed 3-5 grams, d384', { dimensions: 384 }],
        ['hashed 3-5 grams, d512', { dimensions: 512 }],
        ['hashed 3-5 grams, d1024', { dimensions: 1024 }],
        ['hashed 3-5 grams, no part tokens', { partWeight: 0 }],
        ['hashed 3-5 grams, keep stopwords', { stopwordWeight: 1 }],
      ];
  // Per seed: the shipped dense and multi-vector scores, reused by the hybrid grid.
  const denseShipped: Scores[] = [];
  const mvShipped: Scores[] = [];
  for (const [name, opts] of denseVariants) {
    const perSeed = Array.from({ length: SEEDS }, (_, seed) => {
      const e = new HashedNgramEmbedder({ ...shipped.options, ...opts, seed });
      const scores = denseScoresOf((t) => e.embedSync(t));
      if (name.includes('shipped')) denseShipped[seed] = scores;
      return rowOf(name, questions, pages, (q) => scores.get(q.id)!);
    });
    emit(averageRows(`dense ${name}`, perSeed));
  }

  // Multi-vector MaxSim over pooled token bags.
  const mvVariants: Array<{ name: string; max: number; linkage: Linkage; opts?: Partial<HashedNgramOptions> }> = QUICK
    ? [{ name: `tokens d${shipped.tokenDimensions}, pooled ≤${OFFLINE_MAX_VECTORS_PER_PAGE} ward (shipped)`, max: OFFLINE_MAX_VECTORS_PER_PAGE, linkage: 'ward' }]
    : [
        { name: 'tokens 3-5 grams + words d128, unpooled', max: Infinity, linkage: 'ward', opts: { tokenDimensions: 128, wordWeight: 1 } },
        { name: 'tokens d128, unpooled', max: Infinity, linkage: 'ward', opts: { tokenDimensions: 128 } },
        { name: 'tokens d256, unpooled', max: Infinity, linkage: 'ward', opts: { tokenDimensions: 256 } },
        { name: 'tokens d64, pooled ≤256 ward', max: 256, linkage: 'ward', opts: { tokenDimensions: 64 } },
        { name: 'tokens d128, pooled ≤256 ward (shipped)', max: 256, linkage: 'ward', opts: { tokenDimensions: 128 } },
        { name: 'tokens d128, pooled ≤256 centroid', max: 256, linkage: 'centroid', opts: { tokenDimensions: 128 } },
        { name: 'tokens d128, pooled ≤128 ward', max: 128, linkage: 'ward', opts: { tokenDimensions: 128 } },
        { name: 'tokens d256, pooled ≤128 ward', max: 128, linkage: 'ward', opts: { tokenDimensions: 256 } },
        { name: 'tokens d128, pooled ≤64 ward', max: 64, linkage: 'ward', opts: { tokenDimensions: 128 } },
      ];
  for (const v of mvVariants) {
    let note = '';
    const perSeed = Array.from({ length: SEEDS }, (_, seed) => {
      const e = new HashedNgramEmbedder({ ...shipped.options, ...v.opts, seed });
      const { scores, msPerPage, avgVectors } = mvScoresOf(e, v.max, v.linkage);
      if (v.name.includes('shipped')) mvShipped[seed] = scores;
      note = `${avgVectors.toFixed(0)} vectors/page, ${msPerPage.toFixed(1)} ms/page`;
      return rowOf(v.name, questions, pages, (q) => scores.get(q.id)!);
    });
    emit(averageRows(`maxsim ${v.name}`, perSeed, note));
  }

  // transformers.js, when a model is on disk (EMBEDDING_MODEL / EMBEDDING_MODEL_DIR / DATA_DIR/models).
  const tf = await loadTransformersCandidate();
  let tfDense: Scores | undefined;
  if (typeof tf === 'string') {
    log(`transformers.js: not measured (${tf})`);
  } else {
    const chunkVecs = await tf.embedDocuments(chunks.map((c) => c.text));
    const queryVecs = await Promise.all(questions.map((q) => tf.embedQuery(q.question)));
    tfDense = denseScoresFromVectors(chunkVecs, queryVecs);
    emit(rowOf(`dense ${tf.id}`, questions, pages, (q) => tfDense!.get(q.id)!));
    const tp = Date.now();
    const tokenBags = await tf.embedTokens(pages.map((p) => p.text), { kind: 'document' });
    const bags = tokenBags.map((b) => poolVectors(b.vectors, DEFAULT_MAX_VECTORS_PER_PAGE));
    const msPerPage = (Date.now() - tp) / pages.length;
    const mvScores: Scores = new Map();
    for (const q of questions) {
      const [qb] = await tf.embedTokens([q.question], { kind: 'query' });
      mvScores.set(q.id, Float64Array.from(bags.map((b) => maxSim(qb.vectors, b))));
    }
    emit(rowOf(`maxsim ${tf.tokenVectorsId} pooled ≤${DEFAULT_MAX_VECTORS_PER_PAGE}`, questions, pages, (q) => mvScores.get(q.id)!, `${msPerPage.toFixed(0)} ms/page`));
  }

  // Hybrids: weights that never fall below BM25, in either scope, on average over seeds.
  const notBelow = (r: Row) =>
    (['metrics', 'inManual'] as const).every((scope) =>
      (['r1', 'r3', 'r5', 'mrr'] as const).every((k) => r[scope][k] >= bm25Row[scope][k] - 1e-9),
    );
  const grid = QUICK ? [0.2] : [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
  const hybrid = (name: string, fn: (q: Question, seed: number) => Float64Array) =>
    averageRows(
      name,
      Array.from({ length: SEEDS }, (_, seed) => rowOf(name, questions, pages, (q) => fn(q, seed))),
    );
  const hybridRows: Row[] = [];
  for (const alpha of grid) {
    hybridRows.push(hybrid(`hybrid rsf bm25+dense α=${alpha}`, (q, s) => relativeFusion(bm25Scores.get(q.id)!, denseShipped[s].get(q.id)!, alpha)));
    hybridRows.push(hybrid(`hybrid rsf bm25+maxsim α=${alpha}`, (q, s) => relativeFusion(bm25Scores.get(q.id)!, mvShipped[s].get(q.id)!, alpha)));
    hybridRows.push(
      hybrid(`hybrid rsf bm25+dense+maxsim α=${alpha}`, (q, s) => {
        const b = minMax(bm25Scores.get(q.id)!);
        const d = minMax(denseShipped[s].get(q.id)!);
        const m = minMax(mvShipped[s].get(q.id)!);
        return b.map((v, i) => (1 - alpha) * v + (alpha / 2) * (d[i] + m[i]));
      }),
    );
  }
  if (tfDense) {
    for (const alpha of grid) {
      hybridRows.push(hybrid(`hybrid rsf bm25+transformers α=${alpha}`, (q) => relativeFusion(bm25Scores.get(q.id)!, tfDense!.get(q.id)!, alpha)));
    }
  }
  for (const w of QUICK ? [0.5] : [0.25, 0.5, 1]) {
    hybridRows.push(hybrid(`hybrid rrf bm25 + ${w}×dense`, (q, s) => rrf([{ scores: bm25Scores.get(q.id)!, weight: 1 }, { scores: denseShipped[s].get(q.id)!, weight: w }])));
    hybridRows.push(hybrid(`hybrid rrf bm25 + ${w}×maxsim`, (q, s) => rrf([{ scores: bm25Scores.get(q.id)!, weight: 1 }, { scores: mvShipped[s].get(q.id)!, weight: w }])));
  }
  log('\nhybrid grid (✓ = not below BM25 on R@1/3/5 and MRR in both scopes):');
  for (const r of hybridRows) {
    rows.push(r);
    log(`${fmtRow(r)} ${notBelow(r) ? '✓' : ''}`);
  }

  // Cold load, throughput and RSS in a fresh process, so this process's page cache does not count.
  const runProbe = (kind: 'offline' | 'transformers') =>
    JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--probe', kind], {
        input: JSON.stringify(chunks.map((c) => c.text)),
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'ignore'],
      })
        .trim()
        .split('\n')
        .pop()!,
    );
  const summary = {
    offline: runProbe('offline'),
    transformers: typeof tf === 'string' ? `not measured: ${tf}` : runProbe('transformers'),
    pages: pages.length,
    chunks: chunks.length,
    questions: questions.length,
    seeds: SEEDS,
  };
  log('\n', summary);
  if (JSON_OUT) console.log(JSON.stringify({ summary, rows }, null, 2));
}

/** transformers.js from the configured places, without downloading unless --allow-download. */
async function loadTransformersCandidate(): Promise<TransformersEmbedder | string> {
  const { getConfig } = await import('../lib/providers/config');
  const { loadTransformersEmbedder } = await import('../lib/providers/embeddings/transformers');
  const config = getConfig();
  const model = config.embeddings.provider === 'transformers' ? config.embeddings.model : DEFAULT_TRANSFORMERS_MODEL;
  try {
    return await loadTransformersEmbedder({
      model,
      modelDir: config.embeddings.modelDir,
      cacheDir: path.join(config.dataDir, 'models'),
      allowRemote: flag('--allow-download'),
      // The probe child reports JSON on stdout, so its logs go to stderr.
      log: (m) => (argv[0] === '--probe' ? console.error(m) : log(`  ${m}`)),
    });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Child process: cold start, throughput and RSS of one embedder on the chunks from stdin. */
async function probe() {
  const kind = argv[1] === 'transformers' ? 'transformers' : 'offline';
  const texts = JSON.parse(fs.readFileSync(0, 'utf8')) as string[];
  const rss0 = process.memoryUsage().rss;
  const t0 = process.hrtime.bigint();
  const { LocalMultiVectorEmbedder } = await import('../lib/providers/multivector/local');
  let e: Embedder & TokenVectorSource;
  let bag: InstanceType<typeof LocalMultiVectorEmbedder>;
  if (kind === 'transformers') {
    const tf = await loadTransformersCandidate();
    if (typeof tf === 'string') throw new Error(tf);
    e = tf;
    bag = new LocalMultiVectorEmbedder(tf);
  } else {
    const { HashedNgramEmbedder: Offline } = await import('../lib/providers/embeddings/hashed-ngrams');
    const offline = new Offline();
    e = offline;
    bag = new LocalMultiVectorEmbedder(offline, { maxVectorsPerPage: OFFLINE_MAX_VECTORS_PER_PAGE });
  }
  await e.embedQuery('cold start probe: 3.3 V regulator');
  const coldMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const rssLoaded = process.memoryUsage().rss;
  const t1 = Date.now();
  await e.embedDocuments(texts);
  const ms = Math.max(1, Date.now() - t1);
  const t2 = Date.now();
  await bag.embedPages(texts.map((text) => ({ text })));
  const mvMs = Math.max(1, Date.now() - t2);
  console.log(
    JSON.stringify({
      embedder: e.id,
      coldLoadMs: Number(coldMs.toFixed(1)),
      denseChunksPerSecond: Math.round((texts.length / ms) * 1000),
      multiVectorChunksPerSecond: Math.round((texts.length / mvMs) * 1000),
      rssBeforeMb: Math.round(rss0 / 1e6),
      rssLoadedMb: Math.round(rssLoaded / 1e6),
      rssAfterMb: Math.round(process.memoryUsage().rss / 1e6),
    }),
  );
}

function fmtRow(r: Row): string {
  const f = (x: number) => x.toFixed(3);
  const m = (x: Metrics) => `${f(x.r1)} ${f(x.r3)} ${f(x.r5)} ${f(x.mrr)}`;
  return `${r.strategy.padEnd(52)} ${m(r.metrics).padEnd(34)} | ${m(r.inManual)}${r.note ? `  (${r.note})` : ''}`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
