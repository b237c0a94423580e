/**
 * Quick latency probe for the LanceDB store on synthetic data (not a test):
 *   npx tsx lib/providers/vectorstore/bench.ts [--chunks 10000] [--dims 768] [--pages 2000]
 *     [--token-dims 256] [--bag 128] [--queries 40] [--query-vectors 12] [--json]
 * Sizes default to the offline embedder's (768-d chunks, 256-d token vectors, ≤128 per page).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { ChunkRecord, PageRecord } from '../types';
import { openLanceStore } from './lancedb';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const N_CHUNKS = arg('chunks', 10_000);
const DIMS = arg('dims', 768);
const N_PAGES = arg('pages', Math.round(N_CHUNKS / 5));
const TOKEN_DIMS = arg('token-dims', 256);
const BAG = arg('bag', 128);
const QUERIES = arg('queries', 40);
const QUERY_VECTORS = arg('query-vectors', 12);
const MANUALS = 20;
const BATCH = 500; // about one manual per upsert, as ingestion does

let seed = 42;
const rand = () => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const unit = (d: number) => {
  const v = new Float32Array(d);
  let s = 0;
  for (let i = 0; i < d; i++) {
    v[i] = rand() * 2 - 1;
    s += v[i] * v[i];
  }
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < d; i++) v[i] *= inv;
  return v;
};
// Zipf-ish vocabulary plus part numbers, so BM25 posting lists look like real manuals'.
const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
const word = () => vocab[Math.floor(vocab.length * rand() ** 3)];
const partNumber = () => `XC${1000 + Math.floor(rand() * 9000)}`;
const sentence = (n: number) => Array.from({ length: n }, () => (rand() < 0.03 ? partNumber() : word())).join(' ');

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1), mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(1) };
}
async function time(fn: () => Promise<unknown>, n = QUERIES) {
  await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return stats(out);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-vs-bench-'));
  const store = await openLanceStore(dir);
  const report: Record<string, unknown> = { chunks: N_CHUNKS, dims: DIMS, pages: N_PAGES, tokenDims: TOKEN_DIMS, bag: BAG, queryVectors: QUERY_VECTORS };
  try {
    const upsertMs: number[] = [];
    for (let b = 0; b < N_CHUNKS; b += BATCH) {
      const chunks: ChunkRecord[] = [];
      for (let i = b; i < Math.min(N_CHUNKS, b + BATCH); i++) {
        chunks.push({
          id: `c${i}`,
          manualId: `m${i % MANUALS}`,
          page: 1 + (((i / MANUALS) | 0) % 500),
          heading: 'Section',
          text: sentence(60 + Math.floor(rand() * 80)),
          ocr: false,
          bboxes: [{ x: 0, y: 0, w: 1, h: 1 }],
          vector: unit(DIMS),
        });
      }
      const t0 = performance.now();
      await store.upsertChunks(chunks);
      upsertMs.push(performance.now() - t0);
    }
    report.upsertChunksPerBatchOf500 = stats(upsertMs);

    const pageMs: number[] = [];
    for (let b = 0; b < N_PAGES; b += 100) {
      const pages: PageRecord[] = [];
      for (let p = b; p < Math.min(N_PAGES, b + 100); p++) {
        const n = Math.max(8, Math.round(BAG * (0.5 + rand() / 2)));
        pages.push({ manualId: `m${p % MANUALS}`, page: 1 + ((p / MANUALS) | 0), text: '', vectors: Array.from({ length: n }, () => unit(TOKEN_DIMS)) });
      }
      const t0 = performance.now();
      await store.upsertPages(pages);
      pageMs.push(performance.now() - t0);
    }
    report.upsertPagesPerBatchOf100 = stats(pageMs);

    const filter = { manualIds: ['m3'] };
    const q = () => unit(DIMS);
    const text = () => `${word()} ${word()} ${partNumber()}`;
    const mq = () => Array.from({ length: QUERY_VECTORS }, () => unit(TOKEN_DIMS));
    report.bm25BeforeFinalOptimize = await time(() => store.bm25Search(text(), { limit: 10 }), 10);
    const t0 = performance.now();
    await store.optimize();
    report.finalOptimizeMs = Math.round(performance.now() - t0);
    report.dense = await time(() => store.denseSearch(q(), { limit: 10 }));
    report.denseFiltered = await time(() => store.denseSearch(q(), { limit: 10, filter }));
    report.bm25 = await time(() => store.bm25Search(text(), { limit: 10 }));
    report.bm25Filtered = await time(() => store.bm25Search(text(), { limit: 10, filter }));
    report.hybrid = await time(() => store.hybridSearch(text(), q(), { limit: 10 }));
    report.multiVector = await time(() => store.multiVectorSearch(mq(), { limit: 10 }), Math.min(QUERIES, 20));
    report.multiVectorFiltered = await time(() => store.multiVectorSearch(mq(), { limit: 10, filter }), Math.min(QUERIES, 20));

    // For comparison: LanceDB's exact MaxSim over every page (what the two stages avoid).
    const db = await lancedb.connect(dir);
    const pagesTable = await db.openTable('pages');
    report.multiVectorExactNativeFullScan = await time(
      () => pagesTable.vectorSearch(mq()).column('multivector').distanceType('cosine').select(['manual_id', 'page', '_distance']).limit(10).toArray(),
      5,
    );
    pagesTable.close();
    db.close();
    report.diskMB = +(dirSize(dir) / 1e6).toFixed(0);
    report.rssMB = +(process.memoryUsage().rss / 1e6).toFixed(0);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(report));
  else console.table(Object.fromEntries(Object.entries(report).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v])));
}

function dirSize(d: string): number {
  return fs
    .readdirSync(d, { withFileTypes: true })
    .reduce((n, e) => n + (e.isDirectory() ? dirSize(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size), 0);
}

void main();
