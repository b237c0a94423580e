/**
 * A corpus of hostile and broken uploads, generated here (pdf-lib for valid bases,
 * hand-written PDF text for malformed ones), through the real acceptUpload → ingestManual path.
 * Each file gets a clear IngestError or is handled safely, and afterwards the library's other
 * manual, the vector store counts and DATA_DIR/uploads are exactly as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rehypeCitations, rehypeUnsupported } from '@/lib/chat/markdown';
import { acceptUpload, deleteManual } from '@/lib/manuals/service';
import { getVectorStore } from '@/lib/providers';
import { getManual, listManuals, listPages } from '@/lib/store/manuals';
import { restoreEnv } from '@/test/env';
import { isIngestError, type IngestErrorCode } from './errors';
import { manualDir, manualSourcePath, pageImagePath } from './paths';
import { ingestManual } from './pipeline';
import { closeIngestStack } from './testing/teardown';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** A small text-only PDF (no images, so no OCR): `lines` on each of `pages` pages. */
async function textPdf(lines: string[], opts: { pages?: number; size?: [number, number]; title?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  if (opts.title) doc.setTitle(opts.title);
  for (let p = 0; p < (opts.pages ?? 1); p++) {
    const page = doc.addPage(opts.size ?? [595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: page.getHeight() - 60 - i * 18, size: 12, font }));
  }
  return doc.save();
}

/** A hand-written one-page PDF; `extra` goes into the page dictionary; xref offsets are real unless `brokenXref`. */
function handWrittenPdf(extra: string, opts: { brokenXref?: boolean } = {}): Uint8Array {
  const content = 'BT /F1 12 Tf 50 780 Td (Hand written page with enough text to count) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R ${extra} >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(opts.brokenXref ? o * 7 + 3 : o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${opts.brokenXref ? xrefAt + 9999 : xrefAt}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** acceptUpload's IngestError code, or 'accepted' with the manual id. */
async function upload(bytes: Uint8Array, name = 'x.pdf'): Promise<{ code: IngestErrorCode; message: string } | { accepted: string }> {
  try {
    const { manual } = await acceptUpload(bytesOf(bytes), name, 'owner-bad');
    return { accepted: manual.id };
  } catch (err) {
    if (!isIngestError(err)) throw err;
    return { code: err.code, message: err.message };
  }
}

const uploadsDir = () => path.join(process.env.DATA_DIR!, 'uploads');
const envBefore = { MAX_UPLOAD_MB: process.env.MAX_UPLOAD_MB, MAX_PAGES: process.env.MAX_PAGES };

let goodId: string;
let goodCounts: { chunks: number; pages: number };
let totalBefore: { chunks: number; pages: number };
/** Manuals the corpus was allowed to add (deleted again at the end). */
const added: string[] = [];
/** What the malformed cases came to (accepted/ready, or the error code), for the log. */
const outcomes: Record<string, string> = {};

beforeAll(async () => {
  const good = await textPdf(['Pump PX-9 service manual', 'The supply voltage is 24 V DC.', 'Replace the filter every 500 hours.'], { pages: 2 });
  const { manual } = await acceptUpload(bytesOf(good), 'px9.pdf', 'owner-good');
  goodId = manual.id;
  expect((await ingestManual(goodId))?.status).toBe('ready');
  const store = await getVectorStore();
  goodCounts = await store.count({ manualIds: [goodId] });
  totalBefore = await store.count();
  expect(goodCounts.chunks).toBeGreaterThan(0);
}, 120_000);

afterEach(() => {
  restoreEnv(envBefore);
});

afterAll(async () => {
  console.info('[bad-input] outcomes:', JSON.stringify(outcomes));
  await closeIngestStack();
});

describe('the bad upload corpus', () => {
  it('zero bytes → empty', async () => {
    expect(await upload(new Uint8Array(0), 'empty.pdf')).toMatchObject({ code: 'empty', message: expect.stringMatching(/empty/) });
  });

  it('a truncated PDF → corrupt', async () => {
    const full = await textPdf(['Truncated manual page'], { pages: 3 });
    expect(await upload(full.slice(0, Math.floor(full.length / 2)), 'cut.pdf')).toMatchObject({ code: 'corrupt' });
  });

  it('random bytes named .pdf → not_pdf', async () => {
    const random = new Uint8Array(64 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24; // deterministic noise
    expect(await upload(random, 'random.pdf')).toMatchObject({ code: 'not_pdf' });
  });

  it('a PNG named .pdf → not_pdf that says it is a PNG', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    expect(await upload(new Uint8Array(png), 'photo.pdf')).toMatchObject({ code: 'not_pdf', message: expect.stringContaining('PNG image') });
  });

  it('more pages than MAX_PAGES → too_many_pages', async () => {
    process.env.MAX_PAGES = '5';
    const pdf = await textPdf(['One of many pages'], { pages: 6 });
    expect(await upload(pdf, 'many.pdf')).toMatchObject({ code: 'too_many_pages', message: expect.stringContaining('limit is 5') });
  });

  it('over MAX_UPLOAD_MB → too_large, without reading the rest', async () => {
    process.env.MAX_UPLOAD_MB = '1';
    let pulled = 0;
    async function* big() {
      for (let i = 0; i < 64; i++) {
        pulled++;
        yield new Uint8Array(64 * 1024).fill(0x25);
      }
    }
    const err = await acceptUpload(big(), 'big.pdf', 'owner-bad').catch((e: unknown) => e);
    expect(isIngestError(err, 'too_large')).toBe(true);
    expect((err as Error).message).toMatch(/upload limit/);
    expect(pulled).toBeLessThanOrEqual(17); // stopped at the limit (16 × 64 KB), not at 4 MB
  });

  it('a 10000-deep nested array in a page → a clear error or a safe ingest, never a crash', async () => {
    const deep = handWrittenPdf(`/Deep ${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    const r = await upload(deep, 'deep.pdf');
    if ('accepted' in r) {
      added.push(r.accepted);
      const summary = await ingestManual(r.accepted);
      outcomes.deep = `accepted, ingest ${summary?.status} ${summary?.errorCode ?? ''}`.trim();
      expect(summary?.status === 'ready' || (summary?.status === 'failed' && !!summary.errorCode)).toBe(true);
    } else {
      outcomes.deep = r.code;
      expect(r.code).toBe('corrupt');
    }
  });

  it('a broken xref (wrong offsets and startxref) → repaired and readable, or corrupt', async () => {
    const r = await upload(handWrittenPdf('', { brokenXref: true }), 'xref.pdf');
    if ('accepted' in r) {
      added.push(r.accepted);
      outcomes.xref = 'accepted (repaired)';
      expect((await ingestManual(r.accepted))?.status).toBe('ready');
      expect((await listPages(r.accepted))[0].text).toContain('Hand written page');
    } else {
      outcomes.xref = r.code;
      expect(r.code).toBe('corrupt');
    }
  });

  it('a page with a 200000 × 200000 pt MediaBox (PDF bomb): rendering is capped, not OOM', async () => {
    const pdf = await textPdf(['A poster page far larger than any real sheet of paper'], { size: [200_000, 200_000] });
    const r = await upload(pdf, 'poster.pdf');
    expect('accepted' in r).toBe(true);
    const id = (r as { accepted: string }).accepted;
    added.push(id);
    const rss0 = process.memoryUsage().rss;
    const summary = await ingestManual(id);
    expect(summary?.status).toBe('ready');
    const meta = await sharp(pageImagePath(id, 1)).metadata();
    // 24 Mpx cap (plus rounding of each side): about 4900 × 4900 instead of 300000 × 300000 at the viewing scale.
    expect(meta.width! * meta.height!).toBeLessThanOrEqual(24_000_000 + 2 * 4900);
    expect(meta.width).toBeGreaterThan(4000);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(1.5 * 1024 ** 3);
  }, 120_000);

  it('hostile file names are stored as display names only; files live under the manual id', async () => {
    const names = [
      '../../../etc/passwd.pdf',
      'a\u0000b\u0007c.pdf',
      'Bedienungsanleitung für Pumpe – 泵手册 🚰.pdf',
      `${'x'.repeat(300)}.pdf`,
      '..\\..\\windows\\evil.pdf',
    ];
    for (const [i, name] of names.entries()) {
      const r = await upload(await textPdf([`File name case ${i}`]), name);
      expect('accepted' in r, name).toBe(true);
      const id = (r as { accepted: string }).accepted;
      added.push(id);
      const m = (await getManual(id))!;
      expect(m.fileName).not.toMatch(/[/\\\u0000-\u001f]/);
      expect(m.fileName.length).toBeLessThanOrEqual(200);
      expect(m.title.length).toBeLessThanOrEqual(160);
      expect(fs.existsSync(manualSourcePath(id))).toBe(true);
    }
    expect((await getManual(added.at(-3)!))?.fileName).toBe('Bedienungsanleitung für Pumpe – 泵手册 🚰.pdf');
    expect((await getManual(added.at(-4)!))?.fileName).toBe('abc.pdf');
    // Nothing escaped DATA_DIR/manuals/<id>.
    expect(fs.readdirSync(process.env.DATA_DIR!).sort()).toEqual(expect.not.arrayContaining(['etc', 'passwd.pdf', 'windows']));
  });

  it('a PDF with <script> and markdown/HTML injection: stored as text, stripped by the answer renderer', async () => {
    const hostile = [
      '<script>alert("xss")</script> Torque the bolts to 25 Nm.',
      '<img src=x onerror=alert(1)> [click](javascript:alert(2))',
      '# Heading injection **bold** <iframe src="https://evil.example"></iframe>',
    ];
    const pdf = await textPdf(hostile, { title: '<script>alert("title")</script> Pump manual' });
    const r = await upload(pdf, '<b>evil</b>.pdf');
    expect('accepted' in r).toBe(true);
    const id = (r as { accepted: string }).accepted;
    added.push(id);
    expect((await ingestManual(id))?.status).toBe('ready');
    const page = (await listPages(id))[0];
    // Kept verbatim as text: nothing is interpreted or silently dropped at ingest.
    expect(page.text).toContain('<script>alert("xss")</script>');
    expect(page.text).toContain('javascript:alert(2)');
    const hits = await (await getVectorStore()).bm25Search('torque bolts', { limit: 5, filter: { manualIds: [id] } });
    expect(hits.map((h) => h.text).join('\n')).toContain('<script>alert("xss")</script>');

    // An answer quoting that text goes through the chat's markdown pipeline (components/chat/answer.tsx).
    // (A line that starts with <script> is a CommonMark HTML block and is dropped whole, so the
    // quoted sentence comes first here.)
    const answer = `Torque the bolts to 25 Nm. <script>alert("xss")</script> [1]\n\n${hostile.slice(1).join('\n\n')}`;
    const html = renderToStaticMarkup(
      createElement(Markdown, { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeSanitize, [rehypeUnsupported, { sentences: [] }], rehypeCitations] }, answer),
    );
    expect(html).not.toMatch(/<script|<iframe|<img|onerror|javascript:/i);
    expect(html).toContain('Torque the bolts to 25 Nm.');
    expect(html).toContain('<cite data-ref="1">1</cite>');
  }, 60_000);
});

describe('after the corpus', () => {
  it('leaves the other manual, the vector counts and DATA_DIR/uploads untouched', async () => {
    const store = await getVectorStore();
    expect((await getManual(goodId))?.status).toBe('ready');
    expect(await store.count({ manualIds: [goodId] })).toEqual(goodCounts);
    // Rejected files recorded nothing: the only manuals are the good one and the accepted cases.
    expect((await listManuals()).map((m) => m.id).sort()).toEqual([goodId, ...added].sort());
    expect(fs.readdirSync(uploadsDir())).toEqual([]);
    for (const id of added) await deleteManual(id, 'owner-bad');
    expect(await store.count()).toEqual(totalBefore);
    expect(fs.readdirSync(path.join(process.env.DATA_DIR!, 'manuals'))).toEqual([goodId]);
    expect(fs.existsSync(manualDir(goodId))).toBe(true);
  }, 60_000);
});
