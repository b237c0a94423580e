/**
 * `npm run bench`: ingest throughput, search latency by tool and corpus size, time to the first
 * streamed event and to the answer through the running server, peak RSS. Everything lives in a
 * scratch DATA_DIR that is removed at the end. Logs go through `log` (stderr).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChunkRecord, PageRecord } from '../../providers/types';
import type { BenchArgs, BenchPart } from '../args';
import { ingestFile, type IngestedFile, type Log } from '../ingest';
import { latencySummary } from '../metrics';
import { readQa } from '../qa';
import { pagesFor, syntheticChunks, syntheticPages } from './corpus';
import { measureLargeIngest, type LargeIngestReport } from './large';
import { availabilityOf, type AvailabilityFigures } from './availability';
import { type BareEngine, prepareBareEngine } from './ocr-engine';
import { loadAvg1m, type LoadSpan, withLoad } from './load';
import { type OcrPair, type OcrRound, pagesRatio, type RatioSummary, roundOf, summarize } from './ocr-ratio';
import { askOverHttp, freePort, peakRssTree, startServer, waitFor, type TurnTiming } from './server';

/** Who the bench acts as when it removes a manual it ingested (any id is the admin on loopback). */
const BENCH_OPERATOR = 'bench';

/** Real manuals the ingest figures use when ../shared/manuals is there. */
const TEXT_MANUALS = ['pixhawk-ds009-connector-standard.pdf', 'olimex-esp32-poe-user-manual.pdf'];
/** Fully scanned (no text layer), 3 pages: every page goes through OCR. */
const OCR_MANUAL = 'tek-4041-service-notes-1987.pdf';
/**
 * More scanned manuals for the OCR rate, relative to the manuals folder: 20 typewritten pages
 * (read with the configured languages, English alone by default), so the rate is a steady state
 * of both OCR processes rather than three pages' start and tail.
 */
const MORE_OCR_MANUALS = [path.join('..', 'manuals2', 'metra-m1t382-rs232-interface-manual.pdf')];
/**
 * Rounds of the interleaved OCR ratio (pipeline then engine, file by file): three is the fewest
 * that give a median with a spread; each round reads the 23 scanned pages twice (~50 s quiet).
 */
const OCR_RATIO_ROUNDS = 3;

export const SEARCH_TOOLS = ['fast_vector_search', 'hybrid_search', 'colqwen_search', 'bm25'] as const;

/** The corpus sizes, manuals, query count and skipped parts as `npm run bench` parsed them, and the rest. */
export interface BenchOptions extends Pick<BenchArgs, 'sizes' | 'manuals' | 'queries' | 'skip'> {
  root: string;
  /** Chat turns timed through the server (after one warm-up turn). */
  turns: number;
  /** Page-bag cap of the synthetic corpus (page bags are ~250 kB each with the offline embedder). */
  maxPages: number;
  /** Time chat turns with runTurn in-process (no server). */
  inProcess?: boolean;
  log: Log;
}

type P = { p50: number | null; p95: number | null };

export interface BenchReport {
  ingest: {
    text_pages_per_s: number | null;
    ocr_pages_per_s: number | null;
    /** The engine behind ocr_pages_per_s (native tesseract when on PATH). */
    ocr_engine?: string;
    /** The same scanned manual with the zero-install engine, for comparison (native runs only). */
    ocr_pages_per_s_tesseract_js?: number | null;
    /**
     * ocr_pipeline_pages_per_s ÷ the bare engine's pages/s on the same scanned pages (the same images,
     * resolution and process count, drawn before its clock starts), measured in the same run.
     */
    ocr_engine_ratio?: number | null;
    /** Scanned pages/s from claiming the job to `ready` (ocr_pages_per_s counts from the upload). */
    ocr_pipeline_pages_per_s?: number | null;
    /** ocr_pages_per_s (upload included) ÷ the bare engine's pages/s: the median of the rounds. */
    ocr_engine_ratio_from_upload?: number | null;
    /** The rounds' ratios: median (= ocr_engine_ratio), minimum, maximum. */
    ocr_engine_ratio_spread?: RatioSummary;
    /** Each round of the interleaved measurement, its pairs and its load average. */
    ocr_ratio_rounds?: OcrRound[];
    /** The bare engine over every round: pages per round, ms summed over the rounds. */
    ocr_bare_engine?: { files: string[]; pages: number; ms: number; pages_per_s: number | null; processes: number; scales: number[] };
    /** 1-minute load average at the start and end of each group of figures (text, ocr, large). */
    load_avg_1m?: Record<string, LoadSpan>;
    large?: LargeIngestReport;
    /** Progressive availability of the text manuals (./availability.ts). */
    text_availability?: AvailabilityFigures;
    source?: string;
    files?: Array<Pick<IngestedFile, 'file' | 'pages' | 'ocrPages' | 'ms' | 'timings' | 'error'> & { role: string }>;
  };
  search: Record<string, Record<string, { p50_ms: number | null; p95_ms: number | null }>>;
  first_event_ms: P;
  answer_ms: P;
  rss_mb: number;
  first_token_ms?: P;
  corpus?: Record<string, { chunks: number; pages: number; build_ms: number; optimize_ms: number; disk_mb: number; load_avg_1m: LoadSpan }>;
  embed_query_ms?: { dense: P; multivector: P };
  server?: Record<string, unknown>;
  machine: Record<string, unknown>;
  skipped?: BenchPart[];
}

function machineDescription(): Record<string, unknown> {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // not Linux
  }
  return {
    nproc: os.availableParallelism(),
    memory_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    cpu,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    // Other work on the machine skews every figure: recorded so runs can be compared fairly.
    load_avg_1m_at_start: loadAvg1m(),
  };
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const round1 = (x: number) => Math.round(x * 10) / 10;
const ms = (summary: P) => ({ p50_ms: summary.p50, p95_ms: summary.p95 });

function dirSizeMb(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += fs.statSync(p).size;
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return Math.round(total / 1e6);
}

async function timeCalls(n: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(3, n); i++) await call(i); // warm-up: caches, lazily opened indexes
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(i);
    out.push(performance.now() - t0);
  }
  return out;
}

export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const log = opts.log;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-bench-'));
  process.env.DATA_DIR = dataDir;
  process.env.MC_LOG_LEVEL ??= 'silent';

  const { closeDb } = await import('../../store/db');
  const { closeVectorStores, openLanceStore } = await import('../../providers/vectorstore');
  const { closeEmbeddings, recommendedHybridAlpha } = await import('../../providers/embeddings');
  const { shutdownOcrEngine } = await import('../../ingest/pipeline');
  const { describeOcrEngine } = await import('../../ingest/ocr-engine');
  const { deleteManual } = await import('../../manuals/service');
  const { pageImagePath } = await import('../../ingest/paths');
  const { getEmbedder, getMultiVectorEmbedder } = await import('../../providers');
  const { listManuals, listPages } = await import('../../store/manuals');
  const { getDb } = await import('../../store/db');
  const { chunks: chunksTable } = await import('../../store/schema');
  const { writeSampleManual, SAMPLE_QUESTIONS } = await import('../../sample');

  const manualsDir = opts.manuals ?? path.join(opts.root, '..', 'shared', 'manuals');
  const haveReal = fs.existsSync(path.join(manualsDir, OCR_MANUAL)) || TEXT_MANUALS.some((f) => fs.existsSync(path.join(manualsDir, f)));
  const report: BenchReport = {
    ingest: { text_pages_per_s: null, ocr_pages_per_s: null },
    search: {},
    first_event_ms: { p50: null, p95: null },
    answer_ms: { p50: null, p95: null },
    rss_mb: 0,
    machine: machineDescription(),
    ...(opts.skip.length ? { skipped: opts.skip } : {}),
  };

  try {
    // ---------------------------------------------------------------------------------------
    // 1. Ingest throughput (the search corpus grows from the chunks ingested here)
    log(`data dir: ${dataDir}; load average ${report.machine.load_avg_1m_at_start} at the start`);
    const sample = await writeSampleManual(path.join(dataDir, 'sample-src'));
    const files: NonNullable<BenchReport['ingest']['files']> = [];
    const loads: Record<string, LoadSpan> = {};
    report.ingest.load_avg_1m = loads;
    const record = (r: IngestedFile, role: string) => {
      files.push({ role, file: r.file, pages: r.pages, ocrPages: r.ocrPages, ms: r.ms, timings: r.timings, ...(r.error ? { error: r.error } : {}) });
      log(`ingest ${role}: ${r.file}: ${r.status === 'ready' ? `${r.pages} pages (${r.ocrPages} OCR) in ${(r.ms / 1000).toFixed(1)} s` : `FAILED ${r.error}`}`);
      return r;
    };
    const rate = (rs: IngestedFile[], pagesOf: (r: IngestedFile) => number, msOf: (r: IngestedFile) => number) => {
      const ok = rs.filter((r) => r.status === 'ready');
      const pages = ok.reduce((n, r) => n + pagesOf(r), 0);
      const time = ok.reduce((n, r) => n + msOf(r), 0);
      return pages && time ? Math.round((pages * 100_000) / time) / 100 : null;
    };
    if (opts.skip.includes('ingest')) {
      // Only the sample, as seeds for the search corpus; no throughput figures.
      report.ingest.source = 'skipped (the sample is ingested as search seeds only)';
      record(await ingestFile(sample.pdfPath, log), 'seeds');
    } else if (haveReal) {
      report.ingest.source = `real manuals from ${manualsDir} (warm-up: the generated sample)`;
      // Warm-up, not counted: loads the OCR workers, the embedder and the PDF stack.
      record(await ingestFile(sample.pdfPath, log), 'warm-up');
      const text: IngestedFile[] = [];
      const textRun = await withLoad(async () => {
        for (const f of TEXT_MANUALS) if (fs.existsSync(path.join(manualsDir, f))) text.push(record(await ingestFile(path.join(manualsDir, f), log), 'text'));
      });
      loads.text = textRun.load;
      const ocrFiles = [OCR_MANUAL, ...MORE_OCR_MANUALS].map((f) => path.join(manualsDir, f)).filter((f) => fs.existsSync(f));
      report.ingest.text_pages_per_s = rate(text, (r) => r.pages, (r) => r.ms);
      report.ingest.text_availability = availabilityOf(text.filter((r) => r.status === 'ready'));
      const engine = describeOcrEngine();
      report.ingest.ocr_engine = engine.detail;
      // The bare engine's images are drawn before the rounds (its clock covers tesseract alone).
      // With one language the pipeline reads every page once with it; with several, language
      // identification is part of what the pipeline costs and the engine is given English.
      const native = engine.provider === 'tesseract' && ocrFiles.length > 0;
      const bares: BareEngine[] = [];
      if (native) for (const f of ocrFiles) bares.push(await prepareBareEngine(f, { binary: engine.binary!, processes: engine.workers, languages: engine.languages.length === 1 ? engine.languages : ['eng'] }));
      // Interleaved: pipeline file A, engine file A, pipeline file B… each round; a file is removed
      // after its pair so the next round ingests it again (the last round's copies stay: search seeds).
      const ocr: IngestedFile[] = [];
      const rounds: OcrRound[] = [];
      const ocrStart = loadAvg1m();
      const roundCount = native ? OCR_RATIO_ROUNDS : 1;
      for (let round = 1; round <= roundCount; round++) {
        const start = loadAvg1m();
        const pairs: OcrPair[] = [];
        let complete = true;
        for (const [i, f] of ocrFiles.entries()) {
          const r = record(await ingestFile(f, log), roundCount > 1 ? `ocr (round ${round})` : 'ocr');
          ocr.push(r);
          if (!native) continue;
          const e = await bares[i].run();
          if (r.status !== 'ready') complete = false;
          const pipelineMs = r.timings?.total ?? r.ms;
          pairs.push({ file: r.file, pages: r.ocrPages, pipeline_ms: pipelineMs, from_upload_ms: r.ms, engine_pages: e.pages, engine_ms: e.ms, ratio: pagesRatio(r.ocrPages, pipelineMs, e.pages, e.ms) });
          if (round < roundCount && r.manualId) await deleteManual(r.manualId, BENCH_OPERATOR);
        }
        if (!native) continue;
        const done = roundOf(round, { start, end: loadAvg1m() }, pairs, complete);
        rounds.push(done);
        log(`ocr round ${round}: ratio ${done.ratio} (${done.ratio_from_upload} from upload), load ${done.load_avg_1m.start} → ${done.load_avg_1m.end}; pairs ${pairs.map((p) => `${p.file} ${p.pipeline_ms} vs ${p.engine_ms} ms`).join(', ')}`);
      }
      loads.ocr = { start: ocrStart, end: loadAvg1m() };
      report.ingest.ocr_pages_per_s = rate(ocr, (r) => r.ocrPages, (r) => r.ms);
      if (native && report.ingest.ocr_pages_per_s) {
        const all = rounds.flatMap((r) => r.pairs);
        const sum = (f: (p: OcrPair) => number) => all.reduce((n, p) => n + f(p), 0);
        const engineMs = sum((p) => p.engine_ms);
        report.ingest.ocr_bare_engine = {
          files: ocrFiles.map((f) => path.basename(f)),
          pages: bares.reduce((n, b) => n + b.pages, 0),
          ms: engineMs,
          pages_per_s: engineMs ? Math.round((sum((p) => p.engine_pages) * 100_000) / engineMs) / 100 : null,
          processes: engine.workers,
          scales: [...new Set(bares.flatMap((b) => b.scales.map((x) => round1(x))))],
        };
        // The pipeline from claiming the job to `ready` (parse, draw, OCR, previews, embed, index);
        // ocr_pages_per_s also counts the upload (copy, hash, inspection in a PDF worker).
        report.ingest.ocr_pipeline_pages_per_s = rate(ocr, (r) => r.ocrPages, (r) => r.timings?.total ?? r.ms);
        const ratio = summarize(rounds.map((r) => r.ratio));
        const fromUpload = summarize(rounds.map((r) => r.ratio_from_upload));
        report.ingest.ocr_engine_ratio = ratio.median;
        report.ingest.ocr_engine_ratio_spread = ratio;
        report.ingest.ocr_engine_ratio_from_upload = fromUpload.median;
        report.ingest.ocr_ratio_rounds = rounds;
        log(`ocr: pipeline ${report.ingest.ocr_pipeline_pages_per_s} pages/s (${report.ingest.ocr_pages_per_s} from upload), bare engine ${report.ingest.ocr_bare_engine.pages_per_s} pages/s; ratio median ${ratio.median} (${ratio.min}–${ratio.max} over ${ratio.rounds} rounds; ${fromUpload.median} from upload), load ${loads.ocr.start} → ${loads.ocr.end}`);
      }
      // The last round's copy (the earlier rounds' were removed).
      const tek = ocr.filter((r) => r.file === OCR_MANUAL).at(-1);
      if (engine.provider === 'tesseract' && tek?.manualId) {
        // The zero-install engine on the same manual: remove it, switch engines, ingest it again.
        // As the local operator: on loopback any owner acts as admin (lib/auth/roles.ts); a null
        // owner is an anonymous request and may not change the library.
        await deleteManual(tek.manualId, BENCH_OPERATOR);
        await shutdownOcrEngine();
        const saved = process.env.OCR_ENGINE;
        process.env.OCR_ENGINE = 'tesseract.js';
        try {
          const js = [record(await ingestFile(path.join(manualsDir, OCR_MANUAL), log), 'ocr (tesseract.js)')];
          report.ingest.ocr_pages_per_s_tesseract_js = rate(js, (r) => r.ocrPages, (r) => r.ms);
        } finally {
          await shutdownOcrEngine();
          if (saved === undefined) delete process.env.OCR_ENGINE;
          else process.env.OCR_ENGINE = saved;
        }
      }
    } else {
      report.ingest.source = 'the generated sample (no real manuals found); ocr_pages_per_s is its OCR stage alone';
      const r = record(await ingestFile(sample.pdfPath, log), 'text');
      report.ingest.text_pages_per_s = rate([r], (x) => x.pages, (x) => x.ms);
      report.ingest.ocr_pages_per_s = rate([r], (x) => x.ocrPages, (x) => x.timings?.ocr ?? 0);
    }
    report.ingest.files = files;
    await shutdownOcrEngine();
    if (!opts.skip.includes('ingest') && !opts.skip.includes('large')) {
      try {
        const large = await withLoad(() => measureLargeIngest({ root: opts.root, dir: path.join(dataDir, 'large'), pages: 2000, log }));
        report.ingest.large = large.result;
        loads.large = large.load;
      } catch (err) {
        log(`large: ${err instanceof Error ? err.message : String(err)}`);
        report.ingest.large = { pages: 0, ocr_pages: 0, pages_per_s: null, worker_rss_mb: 0, ms: 0, error: err instanceof Error ? err.message : String(err) };
      }
    }

    // ---------------------------------------------------------------------------------------
    // 2. Search latency on a synthetic corpus grown from the real chunks
    if (!opts.skip.includes('search')) {
      const embedder = await getEmbedder();
      const multiVector = await getMultiVectorEmbedder();
      const alpha = recommendedHybridAlpha(embedder);
      const db = await getDb();
      const rows = await db.select().from(chunksTable);
      const seedChunks: ChunkRecord[] = [];
      const texts = rows.map((c) => (c.heading ? `${c.heading}\n${c.text}` : c.text));
      const vectors = await embedder.embedDocuments(texts);
      for (let i = 0; i < rows.length; i++) {
        const c = rows[i];
        seedChunks.push({ id: c.id, manualId: c.manualId, page: c.page, heading: c.heading, text: c.text, ocr: c.ocr, bboxes: c.bboxes, vector: vectors[i] });
      }
      const seedPages: PageRecord[] = [];
      for (const m of (await listManuals()).filter((x) => x.status === 'ready')) {
        const pages = await listPages(m.id);
        const bags = await multiVector.embedPages(pages.map((p) => ({ text: p.text, imagePath: pageImagePath(m.id, p.number) })));
        pages.forEach((p, i) => seedPages.push({ manualId: m.id, page: p.number, text: p.text, vectors: bags[i] }));
      }
      log(`search: ${seedChunks.length} seed chunks and ${seedPages.length} seed pages`);

      const qaFile = path.join(manualsDir, '..', 'eval', 'dev-qa.jsonl');
      const questions = fs.existsSync(qaFile) ? readQa(qaFile).map((q) => q.question) : SAMPLE_QUESTIONS.map((q) => q.question);
      const queryVectors = await Promise.all(questions.map((q) => embedder.embedQuery(q)));
      const queryBags = await Promise.all(questions.map((q) => multiVector.embedQuery(q)));
      // Fresh texts on every call: the embedding cache must not answer.
      let salt = 0;
      const fresh = (i: number) => `${questions[i % questions.length]} (${++salt})`;
      const denseEmbed = await timeCalls(Math.min(opts.queries, 30), (i) => embedder.embedQuery(fresh(i)));
      const mvEmbed = await timeCalls(Math.min(opts.queries, 30), (i) => multiVector.embedQuery(fresh(i)));
      report.embed_query_ms = { dense: latencySummary(denseEmbed), multivector: latencySummary(mvEmbed) };

      const storeDir = path.join(dataDir, 'synthetic-lancedb');
      // Bulk load: indexes are brought up to date once per size (optimize), as the app's idle optimize would.
      const store = await openLanceStore(storeDir, { optimizeUnindexedRows: { chunks: Number.MAX_SAFE_INTEGER, pages: Number.MAX_SAFE_INTEGER }, optimizeIdleMs: 2_000_000_000 });
      report.corpus = {};
      for (const tool of SEARCH_TOOLS) report.search[tool] = {};
      let builtChunks = 0;
      let builtPages = 0;
      try {
        for (const size of opts.sizes) {
          const t0 = performance.now();
          const loadStart = loadAvg1m();
          const targetPages = pagesFor(size, seedChunks.length, seedPages.length, opts.maxPages);
          for (const batch of syntheticChunks(seedChunks, builtChunks, size, 2000)) {
            await store.upsertChunks(batch);
            builtChunks += batch.length;
            if (builtChunks % 20_000 < batch.length) log(`search: ${builtChunks} chunks…`);
          }
          for (const batch of syntheticPages(seedPages, builtPages, targetPages, 100)) {
            await store.upsertPages(batch);
            builtPages += batch.length;
          }
          const buildMs = performance.now() - t0;
          const t1 = performance.now();
          await store.optimize();
          const optimizeMs = performance.now() - t1;
          const count = await store.count();
          report.corpus[String(size)] = { chunks: count.chunks, pages: count.pages, build_ms: Math.round(buildMs), optimize_ms: Math.round(optimizeMs), disk_mb: dirSizeMb(storeDir), load_avg_1m: { start: loadStart, end: -1 } };
          log(`search: corpus ${count.chunks} chunks / ${count.pages} pages built in ${(buildMs / 1000).toFixed(1)} s (+ optimize ${(optimizeMs / 1000).toFixed(1)} s)`);
          const q = (i: number) => i % questions.length;
          const n = opts.queries;
          const key = String(size);
          report.search.fast_vector_search[key] = ms(latencySummary(await timeCalls(n, (i) => store.denseSearch(queryVectors[q(i)], { limit: 10 }))));
          report.search.hybrid_search[key] = ms(latencySummary(await timeCalls(n, (i) => store.hybridSearch(questions[q(i)], queryVectors[q(i)], { limit: 10, alpha }))));
          report.search.colqwen_search[key] = ms(latencySummary(await timeCalls(n, (i) => store.multiVectorSearch(queryBags[q(i)], { limit: 10 }))));
          report.search.bm25[key] = ms(latencySummary(await timeCalls(n, (i) => store.bm25Search(questions[q(i)], { limit: 10 }))));
          report.corpus[key].load_avg_1m.end = loadAvg1m();
          log(`search @${size} (load ${loadStart} → ${report.corpus[key].load_avg_1m.end}): ${SEARCH_TOOLS.map((t) => `${t} p50 ${report.search[t][key].p50_ms} ms`).join(', ')}; rss peak ${peakRssMb()} MB`);
        }
      } finally {
        await store.close();
        fs.rmSync(storeDir, { recursive: true, force: true });
      }
    }

    // ---------------------------------------------------------------------------------------
    // 3. Time to first event and to the answer through the running server
    if (!opts.skip.includes('server')) {
      const questions = SAMPLE_QUESTIONS.filter((q) => q.kind !== 'unanswerable').map((q) => q.question);
      const timings: TurnTiming[] = [];
      const serverLoadStart = loadAvg1m();
      const haveRoute = !opts.inProcess && fs.existsSync(path.join(opts.root, 'app', 'api', 'chat', 'route.ts'));
      let serverInfo: Record<string, unknown> = {};
      if (haveRoute) {
        try {
          serverInfo = await measureServer(opts, dataDir, questions, timings);
        } catch (err) {
          serverInfo = { mode: 'http', error: err instanceof Error ? err.message : String(err) };
          log(`server: ${serverInfo.error}`);
        }
      }
      if (!haveRoute || serverInfo.error) {
        // No chat endpoint (or it failed): the same turns in-process, labelled so.
        log('server: measuring runTurn in-process instead (no HTTP, no stream encoding)');
        timings.length = 0;
        serverInfo = { ...serverInfo, mode: `in-process runTurn (not through the server${opts.inProcess ? ': --in-process' : ''})` };
        const { runTurn } = await import('../../agent');
        const { agentServices } = await import('../../services/agent-services');
        const { defaultTools } = await import('@/tools');
        const { readyManualIds } = await import('../../store/manuals');
        const manualIds = await readyManualIds();
        for (let i = 0; i <= opts.turns; i++) {
          const t0 = performance.now();
          const t: TurnTiming = { firstEventMs: null, firstTokenMs: null, answerMs: null, totalMs: 0, status: 'unknown', answer: '', events: 0 };
          for await (const e of runTurn({ tools: defaultTools, question: questions[i % questions.length], manualIds, services: agentServices() })) {
            const at = round1(performance.now() - t0);
            t.events++;
            t.firstEventMs ??= at;
            if (e.type === 'response_delta' || e.type === 'response') t.firstTokenMs ??= at;
            if (e.type === 'response') t.answerMs = at;
            if (e.type === 'done') t.status = e.status;
          }
          t.totalMs = round1(performance.now() - t0);
          if (i > 0) timings.push(t); // the first turn is the warm-up
        }
      }
      const pick = (f: (t: TurnTiming) => number | null) => latencySummary(timings.map(f).filter((x): x is number => x !== null));
      report.first_event_ms = pick((t) => t.firstEventMs);
      report.answer_ms = pick((t) => t.answerMs);
      report.first_token_ms = pick((t) => t.firstTokenMs);
      report.server = { ...serverInfo, load_avg_1m: { start: serverLoadStart, end: loadAvg1m() }, turns: timings.length, statuses: [...new Set(timings.map((t) => t.status))] };
    }
  } finally {
    await shutdownOcrEngine().catch(() => undefined);
    await closeVectorStores().catch(() => undefined);
    await closeEmbeddings().catch(() => undefined);
    await closeDb().catch(() => undefined);
    report.rss_mb = peakRssMb();
    report.machine.load_avg_1m_at_end = loadAvg1m();
    log(`load average ${report.machine.load_avg_1m_at_start} at the start, ${report.machine.load_avg_1m_at_end} at the end`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return report;
}

async function measureServer(opts: BenchOptions, dataDir: string, questions: string[], timings: TurnTiming[]): Promise<Record<string, unknown>> {
  const log = opts.log;
  const port = await freePort();
  const serverDir = path.join(dataDir, 'server');
  const logFile = path.join(dataDir, 'server.log');
  log(`server: starting npx tsx scripts/start.ts on port ${port} (builds first if the sources changed)`);
  const t0 = performance.now();
  const server = startServer({ root: opts.root, dataDir: serverDir, port, logFile, env: { MC_LOG_LEVEL: 'silent' } });
  try {
    await waitFor('GET /api/health', async () => ((await fetch(`${server.url}/api/health`)).ok ? true : undefined), { timeoutMs: 15 * 60_000, child: server.child, logFile });
    const healthyMs = performance.now() - t0;
    log(`server: healthy after ${(healthyMs / 1000).toFixed(1)} s; waiting for the sample manual`);
    await waitFor(
      'the sample manual to be ready',
      async () => {
        const body = (await (await fetch(`${server.url}/api/manuals`)).json()) as { manuals: Array<{ status: string }> };
        return body.manuals.some((m) => m.status === 'ready') ? true : undefined;
      },
      { timeoutMs: 10 * 60_000, child: server.child, logFile },
    );
    const readyMs = performance.now() - t0;
    const cookie: { value?: string } = {};
    let cold: TurnTiming | undefined;
    for (let i = 0; i <= opts.turns; i++) {
      const t = await askOverHttp(server.url, questions[i % questions.length], cookie);
      if (i === 0) cold = t;
      else timings.push(t);
    }
    const rss = peakRssTree(server.child.pid!);
    log(`server: ${timings.length} turns timed; peak RSS ${rss.map((r) => `${r.command.split(' ').slice(-2).join(' ')}: ${r.peakMb} MB`).join(', ')}`);
    return {
      mode: 'http: POST /api/chat (UI message stream) on loopback',
      startup_to_healthy_ms: Math.round(healthyMs),
      startup_to_sample_ready_ms: Math.round(readyMs),
      cold_turn: cold && { first_event_ms: cold.firstEventMs, answer_ms: cold.answerMs },
      rss_mb: Object.fromEntries(rss.filter((r) => r.peakMb > 20).map((r) => [`${r.pid} ${r.command}`, r.peakMb])),
      rss_total_mb: rss.reduce((n, r) => n + r.peakMb, 0),
    };
  } finally {
    await server.stop();
  }
}
