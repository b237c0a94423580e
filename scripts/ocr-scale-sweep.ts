/**
 * `npx tsx scripts/ocr-scale-sweep.ts [--scales 3,2.5,2] [--lang eng] [--processes 2] FILE.pdf…`:
 * how the scale a scanned page is read at changes what tesseract reads and what it costs. Every
 * page read whole by OCR (planOcr) is drawn at the plan's scale, its capital height measured
 * (ocr-scale.ts), then read by the `tesseract` CLI (the pipeline's arguments, one thread) at each
 * scale (the plan's render shrunk by sharp, as the pipeline shrinks it) and at the scale the
 * pipeline would choose ("auto"). Per page: word F1 of each reading against the plan-scale
 * reading (the words the pipeline keeps, confidence filter included; `--above 3.5` adds a reading
 * drawn sharper than the plan, as a control), tesseract's CPU seconds
 * (user + system, from /usr/bin/time: load on the machine does not inflate them), and the median
 * word-box height tesseract reports (`--texts DIR` keeps every reading's text). One JSON line per page on stdout, a per-file summary on stderr.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { parseTsv } from '../lib/ingest/ocr-native';
import { ocrLinesToPage, planOcr } from '../lib/ingest/ocr-page';
import { measureCapHeight, readingScale } from '../lib/ingest/ocr-scale';
import { openPdf } from '../lib/ingest/pdf';
import { type RawImage, toPam } from '../lib/ingest/render';
import { wordF1 } from '../lib/ingest/testing/word-f1';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const scales = arg('scales', '3,2.75,2.5,2.25,2,1.75').split(',').map(Number);
const lang = arg('lang', 'eng');
const processes = Number(arg('processes', '2'));
/** A control: a reading drawn sharper than the plan (its F1 against the plan's reading is what "the same words" can mean for tesseract). */
const above = Number(arg('above', '0'));
/** Folder to write every reading's text to (FILE.pNN.SCALE.txt), for other comparisons. */
const textsDir = arg('texts', '');
/** `--auto 0`: leave out the reading at the scale the pipeline would choose. */
const withAuto = arg('auto', '1') !== '0';
const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
if (textsDir) fs.mkdirSync(textsDir, { recursive: true });

interface Reading {
  text: string;
  cpuS: number;
  wordHeightPx: number | null;
}

let runs = 0;
function tesseract(image: Buffer, dpi: number): Promise<Reading & { tsv: string }> {
  return new Promise((resolve, reject) => {
    const timesFile = path.join(os.tmpdir(), `ocr-scale-sweep-${process.pid}-${++runs}.txt`);
    const args = ['-f', '%U %S', '-o', timesFile, 'tesseract', 'stdin', 'stdout', '--psm', '3', '-l', lang, '--dpi', String(Math.round(dpi)), 'tsv'];
    const child = spawn('/usr/bin/time', args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`tesseract exit ${code}`));
      const [u, s] = fs.readFileSync(timesFile, 'utf8').trim().split(/\s+/).map(Number);
      fs.rmSync(timesFile, { force: true });
      resolve({ tsv: out, text: '', cpuS: u + s, wordHeightPx: null });
    });
    child.stdin.end(image);
  });
}

async function shrink(raw: RawImage, scale: number): Promise<RawImage> {
  if (scale >= raw.scale) return raw;
  const width = Math.round((raw.width * scale) / raw.scale);
  const height = Math.round((raw.height * scale) / raw.scale);
  const data = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, width, height, scale: (raw.scale * width) / raw.width };
}

async function read(raw: RawImage, bbox: { x: number; y: number; w: number; h: number }): Promise<Reading> {
  const r = await tesseract(toPam(raw), raw.scale * 72);
  const ocr = parseTsv(r.tsv);
  const lines = ocrLinesToPage(ocr, bbox, raw.scale);
  const heights = ocr.words
    .filter((w) => w.confidence >= 45 && w.text.trim().length >= 3)
    .map((w) => w.bbox.h)
    .sort((a, b) => a - b);
  return { text: lines.map((l) => l.text).join('\n'), cpuS: r.cpuS, wordHeightPx: heights.length ? heights[Math.floor(heights.length / 2)] : null };
}

async function pool<T>(jobs: Array<() => Promise<T>>, n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

async function main() {
  const summary = new Map<string, { pages: number; cpu: Record<string, number>; f1: Record<string, number[]> }>();
  for (const file of files) {
    const doc = await openPdf(new Uint8Array(fs.readFileSync(file)), { maxBytes: Infinity });
    const name = path.basename(file);
    const sum = { pages: 0, cpu: {} as Record<string, number>, f1: {} as Record<string, number[]> };
    summary.set(name, sum);
    try {
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.extractPage(n);
        const target = planOcr(page).find((t) => t.mode === 'page');
        if (!target) continue;
        const raw = await doc.renderRegionRaw(n, target.bbox, { scale: target.scale });
        const t = performance.now();
        const cap = measureCapHeight(raw);
        const measureMs = performance.now() - t;
        const auto = readingScale(raw.scale, cap);
        const labels = [...scales.map(String), ...(withAuto ? ['auto'] : []), ...(above ? [`${above}_drawn`] : [])];
        const images = [...scales, ...(withAuto ? [auto] : [])].map((s) => () => shrink(raw, s));
        if (above) images.push(() => doc.renderRegionRaw(n, target.bbox, { scale: above }));
        // Drawn here, on this thread, before the readings start (pdf.js draws one page at a time).
        const drawn = [];
        for (const img of images) drawn.push(await img());
        const readings = await pool(
          drawn.map((img) => () => read(img, target.bbox)),
          processes,
        );
        const ref = readings[0];
        const row: Record<string, unknown> = {
          file: name,
          page: n,
          cap_px: cap,
          measure_ms: Math.round(measureMs),
          auto: Math.round(auto * 100) / 100,
          word_h_px: ref.wordHeightPx,
          words: ref.text.split(/\s+/).length,
        };
        sum.pages++;
        if (textsDir) labels.forEach((l, i) => fs.writeFileSync(path.join(textsDir, `${name}.p${String(n).padStart(2, '0')}.${l}.txt`), readings[i].text));
        labels.forEach((l, i) => {
          const f1 = wordF1(ref.text, readings[i].text);
          row[`f1_${l}`] = Math.round(f1 * 1000) / 1000;
          row[`cpu_${l}`] = Math.round(readings[i].cpuS * 100) / 100;
          sum.cpu[l] = (sum.cpu[l] ?? 0) + readings[i].cpuS;
          (sum.f1[l] ??= []).push(f1);
        });
        console.log(JSON.stringify(row));
      }
    } finally {
      await doc.close();
    }
  }
  for (const [name, s] of summary) {
    if (!s.pages) continue;
    const parts = Object.keys(s.cpu).map(
      (l) => `${l}: F1 ${(s.f1[l].reduce((a, b) => a + b, 0) / s.pages).toFixed(3)} (min ${Math.min(...s.f1[l]).toFixed(3)}), CPU ${s.cpu[l].toFixed(1)} s`,
    );
    console.error(`${name} (${s.pages} pages)\n  ${parts.join('\n  ')}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
