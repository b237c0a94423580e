import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSampleManual } from '@/lib/sample';
import { generateLargeManual } from '@/lib/sample/large';
import { SAMPLE_MACHINE, SAMPLE_QUESTIONS } from '@/lib/sample/facts';
import { getEmbedder, getVectorStore } from '@/lib/providers';
import { acceptUpload, deleteManual } from '@/lib/manuals/service';
import { getChunk, getManual, listPages, searchableManualIds, updateManual } from '@/lib/store/manuals';
import { listUnitsOfPage } from '@/lib/store/units';
import { libraryIndex } from '@/lib/ranking/library-cache';
import { readCorpusRows, saveDeviceProfile } from '@/lib/store/corpus';
import { ADMIN_USER_ID } from '@/lib/store/users';
import { ingestManual } from './pipeline';
import { recoverInterruptedJobs } from './recovery';
import { manualDir, pageImagePath, pageThumbPath } from './paths';
import { hasSharedManuals, sharedManual } from '@/test/shared-manuals';
import { closeIngestStack } from './testing/teardown';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

let samplePdf: Uint8Array;
let sampleId: string;

beforeAll(async () => {
  samplePdf = (await generateSampleManual()).pdf;
  const { manual } = await acceptUpload(bytesOf(samplePdf), 'acme-hx200-manual.pdf', 'owner-a');
  sampleId = manual.id;
  const summary = await ingestManual(sampleId);
  expect(summary?.status).toBe('ready');
}, 180_000);

afterAll(closeIngestStack);

describe('ingest pipeline on the generated sample manual', () => {
  it('ends ready with every page, image, chunk and vector', async () => {
    const m = (await getManual(sampleId))!;
    expect(m.status).toBe('ready');
    expect(m.pageCount).toBe(10);
    expect(m.password).toBeNull();
    expect(Object.keys(m.timings ?? {})).toEqual(expect.arrayContaining(['parsing', 'ocr', 'rendering', 'embedding', 'indexing', 'total']));
    const pages = await listPages(sampleId);
    expect(pages.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const p of pages) {
      expect(fs.statSync(pageImagePath(sampleId, p.number)).size).toBeGreaterThan(5_000);
      expect(fs.statSync(pageThumbPath(sampleId, p.number)).size).toBeGreaterThan(500);
    }
    const store = await getVectorStore();
    const counts = await store.count({ manualIds: [sampleId] });
    expect(counts.pages).toBe(10);
    expect(counts.chunks).toBeGreaterThan(10);
  });

  it('stores which device the manual is about; the library reads a stale profile again', async () => {
    const profile = (await getManual(sampleId))!.deviceProfile!;
    expect(profile.models).toContain(SAMPLE_MACHINE.model);
    expect(profile.maker).toBe(SAMPLE_MACHINE.name.split(' ')[0]);
    expect(profile.kind).toBe(SAMPLE_MACHINE.name.split(' ').slice(2).join(' ').toLowerCase());
    // A profile read by an older reader (or from another title) is stale: reading the library reads it again.
    await saveDeviceProfile(sampleId, { ...profile, version: 0, kind: undefined });
    await updateManual(sampleId, {});
    await libraryIndex();
    expect((await getManual(sampleId))!.deviceProfile).toEqual(profile);
  });

  it('stores the structure units of its pages with their boxes', async () => {
    const m = (await getManual(sampleId))!;
    expect(m.timings!.structure).toBeGreaterThanOrEqual(0);
    const all = (await Promise.all(Array.from({ length: 10 }, (_, i) => listUnitsOfPage(sampleId, i + 1)))).flat();
    const kinds = new Set(all.map((u) => u.kind));
    for (const k of ['table', 'procedure', 'paragraph']) expect(kinds).toContain(k);
    for (const u of all) {
      expect(u.id.startsWith(`${sampleId}:u`)).toBe(true);
      for (const r of u.regions) {
        expect(r.bbox.x).toBeGreaterThanOrEqual(0);
        expect(r.bbox.x + r.bbox.w).toBeLessThanOrEqual(596);
        expect(r.bbox.y + r.bbox.h).toBeLessThanOrEqual(842);
      }
    }
    // A table's grid comes back whole from the JSON column.
    const table = all.find((u) => u.kind === 'table')!;
    expect((table.data as { table: { rows: unknown[] } }).table.rows.length).toBeGreaterThan(0);
  });

  it('makes the raster-only page searchable through OCR', async () => {
    const pages = await listPages(sampleId);
    const raster = pages.find((p) => p.number === 5)!;
    expect(raster.ocr).toBe(true);
    // The rating plate exists only as pixels; its fuse rating must come back as text.
    expect(raster.text.replace(/\s+/g, '')).toContain('T6.3A');
    const hits = await (await getVectorStore()).bm25Search('T6.3A fuse rating plate', { limit: 5, filter: { manualIds: [sampleId] } });
    expect(hits[0]?.page).toBe(5);
    expect(hits[0]?.ocr).toBe(true);
  });

  it('finds a spec on its page with highlight boxes inside the page', async () => {
    const fact = SAMPLE_QUESTIONS.find((q) => q.answer_keywords.includes('24 V DC'))!;
    const embedder = await getEmbedder();
    const store = await getVectorStore();
    const hits = await store.hybridSearch(fact.question, await embedder.embedQuery(fact.question), { limit: 5, filter: { manualIds: [sampleId] } });
    const hit = hits.find((h) => fact.pages.includes(h.page));
    expect(hit, `no hit on page ${fact.pages} in ${hits.map((h) => h.page)}`).toBeTruthy();
    const chunk = (await getChunk(hit!.id))!;
    const page = (await listPages(sampleId)).find((p) => p.number === chunk.page)!;
    expect(chunk.bboxes.length).toBeGreaterThan(0);
    for (const b of chunk.bboxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(page.width + 1);
      expect(b.y + b.h).toBeLessThanOrEqual(page.height + 1);
    }
  });

  it('records when the first page and every text page were searchable, and figure labels done', async () => {
    const m = (await getManual(sampleId))!;
    expect(m).toMatchObject({ searchablePages: 10, figureLabels: 'done' });
    expect(m.timings!.first_searchable).toBeGreaterThan(0);
    expect(m.timings!.first_searchable).toBeLessThanOrEqual(m.timings!.text_searchable);
    expect(m.timings!.text_searchable).toBeLessThanOrEqual(m.timings!.total);
  });

  it('searches a processing manual through its ready pages, then the same rows complete once ready', async () => {
    // The test gate (e2e-gate.ts) holds the text pass once 12 pages are searchable.
    const gate = path.join(process.env.DATA_DIR!, 'ingest-gate');
    fs.writeFileSync(gate, '12');
    vi.stubEnv('MC_E2E', '1');
    vi.stubEnv('MC_E2E_INGEST_GATE', gate);
    try {
      const pdf = await generateLargeManual({ pages: 30, scannedEvery: 100, seed: 7 });
      const { manual } = await acceptUpload(bytesOf(pdf), 'progressive.pdf', 'owner-a');
      const running = ingestManual(manual.id);
      await vi.waitFor(async () => expect((await getManual(manual.id))?.searchablePages).toBeGreaterThanOrEqual(12), { timeout: 150_000, interval: 50 });
      const held = (await getManual(manual.id))!;
      expect(held).toMatchObject({ status: 'parsing', figureLabels: 'pending', pageCount: 30 });
      // The rows never run ahead of the count, nor behind it: pages 1..N, each once.
      expect((await listPages(manual.id)).map((p) => p.number)).toEqual(Array.from({ length: held.searchablePages }, (_, i) => i + 1));
      expect(await searchableManualIds()).toContain(manual.id);
      const index = await libraryIndex();
      expect(index.pages.filter((p) => p.manualId === manual.id)).toHaveLength(held.searchablePages);
      const early = index.chunks.filter((c) => c.manualId === manual.id);
      expect(early.length).toBeGreaterThan(0);
      fs.rmSync(gate);
      expect((await running)?.status).toBe('ready');
      expect(await getManual(manual.id)).toMatchObject({ searchablePages: 30, figureLabels: 'done' });
      expect((await listPages(manual.id)).map((p) => p.number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      // The complete rows replaced the text pass's: no chunk row left over or missing (the vector
      // store holds exactly the final chunks), and every early page still has its chunks.
      const final = (await readCorpusRows([manual.id])).chunks;
      expect(final).toHaveLength((await (await getVectorStore()).count({ manualIds: [manual.id] })).chunks);
      expect(new Set(final.map((c) => c.id)).size).toBe(final.length);
      for (const p of new Set(early.map((c) => c.page))) expect(final.some((c) => c.page === p)).toBe(true);
    } finally {
      fs.rmSync(gate, { force: true });
      vi.unstubAllEnvs();
    }
  }, 240_000);

  it('treats the same file again as a duplicate', async () => {
    const again = await acceptUpload(bytesOf(samplePdf), 'renamed-copy.pdf', 'owner-b');
    expect(again.duplicate).toBe(true);
    expect(again.manual.id).toBe(sampleId);
  });
});

describe('bad input and failures leave nothing behind', () => {
  it('rejects non-PDF, empty and truncated uploads before recording anything', async () => {
    const store = await getVectorStore();
    const before = await store.count();
    await expect(acceptUpload(bytesOf(new Uint8Array(0)), 'empty.pdf', 'o')).rejects.toMatchObject({ code: 'empty' });
    await expect(acceptUpload(bytesOf(new TextEncoder().encode('hello, not a pdf')), 'x.pdf', 'o')).rejects.toMatchObject({ code: 'not_pdf' });
    await expect(acceptUpload(bytesOf(samplePdf.slice(0, 2000)), 'cut.pdf', 'o')).rejects.toMatchObject({ code: 'corrupt' });
    expect(await store.count()).toEqual(before);
    expect(fs.readdirSync(path.join(process.env.DATA_DIR!, 'uploads'))).toEqual([]);
  });

  it('its uploader can delete a manual and everything goes (who else may: lib/manuals/service.test.ts)', async () => {
    // A second, different PDF: the sample with one byte of trailing garbage after %%EOF.
    const variant = new Uint8Array([...samplePdf, 0x0a]);
    const { manual } = await acceptUpload(bytesOf(variant), 'variant.pdf', 'owner-a');
    expect((await ingestManual(manual.id))?.status).toBe('ready');
    await deleteManual(manual.id, 'owner-a');
    expect(await getManual(manual.id)).toBeUndefined();
    expect(fs.existsSync(manualDir(manual.id))).toBe(false);
    expect(await (await getVectorStore()).count({ manualIds: [manual.id] })).toEqual({ chunks: 0, pages: 0 });
    // The other manual is untouched.
    expect((await getManual(sampleId))?.status).toBe('ready');
  }, 120_000);

  it('cancels a long manual deleted mid-way through parsing: stops within a progress tick and leaves nothing behind', async () => {
    const pdf = await generateLargeManual({ pages: 80, scannedEvery: 20 });
    const { manual } = await acceptUpload(bytesOf(pdf), 'long.pdf', 'owner-a');
    const running = ingestManual(manual.id);
    // Delete once a few pages are through (the way the Manuals page's Delete button cancels).
    // The ceiling only turns a stuck ingest into a clear failure before the test's timeout.
    await vi.waitFor(
      async () => {
        const m = await getManual(manual.id);
        expect(m).toMatchObject({ status: 'parsing', progressDone: expect.any(Number) });
        expect(m!.progressDone).toBeGreaterThanOrEqual(5);
      },
      { timeout: 150_000, interval: 50 },
    );
    await deleteManual(manual.id, 'owner-a');
    const summary = await running;
    expect(summary).toMatchObject({ status: 'failed', error: 'deleted during processing' });
    expect(summary!.pages).toBe(80);
    // It stopped in the parsing stage, long before the 80th page.
    expect(summary!.timings.parsing).toBeUndefined();
    expect(await getManual(manual.id)).toBeUndefined();
    expect(fs.existsSync(manualDir(manual.id))).toBe(false);
    expect(await (await getVectorStore()).count({ manualIds: [manual.id] })).toEqual({ chunks: 0, pages: 0 });
  }, 180_000);

  it('recovers a job interrupted mid-way: partial output removed, requeued, then failed after repeated crashes', async () => {
    const variant = new Uint8Array([...samplePdf, 0x0a, 0x0a]);
    const { manual } = await acceptUpload(bytesOf(variant), 'crashy.pdf', null);
    expect((await ingestManual(manual.id))?.status).toBe('ready');
    // Pretend the process died while indexing: vectors and pages are there, status is mid-way.
    await updateManual(manual.id, { status: 'indexing' });
    let outcome = await recoverInterruptedJobs();
    expect(outcome).toEqual([{ id: manual.id, outcome: 'requeued' }]);
    expect((await getManual(manual.id))?.status).toBe('queued');
    expect(await (await getVectorStore()).count({ manualIds: [manual.id] })).toEqual({ chunks: 0, pages: 0 });
    expect(await listPages(manual.id)).toEqual([]);
    expect(await listUnitsOfPage(manual.id, 1)).toEqual([]);
    // Two more interruptions: it is failed with a clear reason instead of looping forever.
    for (let i = 0; i < 2; i++) {
      await updateManual(manual.id, { status: 'ocr' });
      outcome = await recoverInterruptedJobs();
    }
    expect(outcome).toEqual([{ id: manual.id, outcome: 'failed' }]);
    expect((await getManual(manual.id))?.error).toMatch(/interrupted 3 times/);
  }, 120_000);
});

describe.runIf(hasSharedManuals)('kill -9 during ingest', () => {
  // Killed in the text pass (some pages searchable already) and in a later stage.
  it.each([
    { when: 'while its first pages are searchable and the rest are still being read', at: `status = 'parsing' and searchable_pages > 0` },
    { when: 'after the text pass, in a later stage', at: `status in ('ocr', 'rendering', 'embedding', 'indexing')` },
  ])(
    'leaves no half-indexed manual $when: the next worker start cleans up and finishes the job',
    async ({ at }) => {
      const dataDir = process.env.DATA_DIR!;
      const file = sharedManual('librevna-user-manual.pdf'); // 54 pages: long enough to be killed mid-way
      const env = { ...process.env, DATA_DIR: dataDir, MC_LOG_LEVEL: 'silent' };
      const { getDb } = await import('@/lib/store/db');
      const db = await getDb();
      // The previous case's manual goes first, so this run ingests the file afresh.
      for (const r of (await db.run(`select id from manuals where file_name = 'librevna-user-manual.pdf'`)).rows)
        await deleteManual(String(r.id), ADMIN_USER_ID);
      const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/ingest.ts'), file, '--json'], { env, stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      // Wait until it reached the point, then kill it without warning.
      // A ceiling, not a timing check: on a loaded 2-core machine parsing alone took 200 s.
      try {
        await vi.waitFor(
          async () => {
            const rows = await db.run(`select id from manuals where file_name = 'librevna-user-manual.pdf' and ${at}`);
            expect(rows.rows).toHaveLength(1);
          },
          { timeout: 240_000, interval: 100 },
        );
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      const row = (await db.run(`select id, status, searchable_pages from manuals where file_name = 'librevna-user-manual.pdf'`)).rows[0];
      const id = String(row.id);
      expect(row.status).not.toBe('ready');
      // What the dead worker left is consistent: rows for pages 1..N, each once, N as recorded.
      const pageNumbers = (await listPages(id)).map((p) => p.number);
      expect(pageNumbers).toEqual(Array.from({ length: Number(row.searchable_pages) }, (_, i) => i + 1));

      const recovered = await recoverInterruptedJobs();
      expect(recovered).toContainEqual({ id, outcome: 'requeued' });
      expect(await (await getVectorStore()).count({ manualIds: [id] })).toEqual({ chunks: 0, pages: 0 });
      expect(await getManual(id)).toMatchObject({ searchablePages: 0 });
      expect(await listPages(id)).toEqual([]);
      const summary = await ingestManual(id);
      expect(summary?.status).toBe('ready');
      expect(summary?.pages).toBe(54);
      expect((await listPages(id)).map((p) => p.number)).toEqual(Array.from({ length: 54 }, (_, i) => i + 1));
      expect(await getManual(id)).toMatchObject({ searchablePages: 54, figureLabels: 'done' });
    },
    600_000,
  );
});
