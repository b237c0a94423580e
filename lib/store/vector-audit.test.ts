/**
 * A deleted or damaged vector index (DATA_DIR/lancedb) beside an intact database: health says so
 * (`index.vectors.ok: false`, `degraded`), and the index is rebuilt from the chunks the database
 * keeps — by the ingest worker (a real worker process) for a deleted folder, by the repair itself
 * for a truncated data file. Real SQLite, real LanceDB, the offline embedders; nothing is mocked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { acceptUpload } from '@/lib/manuals/service';
import { generateSampleManual } from '@/lib/sample';
import { getEmbedder, getVectorStore } from '@/lib/providers';
import { closeVectorStores } from '@/lib/providers/vectorstore';
import { ingestManual } from '@/lib/ingest/pipeline';
import { reembedStaleManuals } from '@/lib/ingest/reembed';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { startIngestWorker, stopIngestWorker } from '@/lib/ingest/worker-client';
import { healthReport } from '@/lib/server/health';
import { auditVectorIndex, repairVectorIndex } from './vector-audit';

const lanceDir = path.join(process.env.DATA_DIR!, 'lancedb');
let manualId = '';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** Chunks of the manual a dense search finds: all of them when the index is whole. */
async function denseHits(): Promise<number> {
  const [vector] = await (await getEmbedder()).embedDocuments(['supply voltage of the controller']);
  return (await (await getVectorStore()).denseSearch(vector, { limit: 100, filter: { manualIds: [manualId] } })).length;
}

/** The health report's view of the index, once its background audit has seen `ok` (bounded by the test's timeout). */
async function healthVectors(ok: boolean) {
  return vi.waitFor(
    async () => {
      const report = await healthReport();
      expect((report.index as { vectors?: { ok: boolean | null } }).vectors?.ok).toBe(ok);
      return report;
    },
    { timeout: 60_000, interval: 200 },
  );
}

beforeAll(async () => {
  const { manual } = await acceptUpload(bytesOf((await generateSampleManual()).pdf), 'acme-hx200-manual.pdf', 'owner-a');
  manualId = manual.id;
  expect((await ingestManual(manualId))?.status).toBe('ready');
}, 180_000);

afterAll(async () => {
  await stopIngestWorker();
  await closeIngestStack();
});

describe('the vector index against the stored chunks', () => {
  it('a whole index: the audit and health say ok', async () => {
    expect(await auditVectorIndex()).toEqual({ ok: true, manuals: 1 });
    const report = await healthVectors(true);
    expect(report.degraded).toBe(false);
    expect(await denseHits()).toBeGreaterThan(10);
  });

  it('a deleted LanceDB folder: health says which manuals lack vectors, and the worker re-embeds them from the stored chunks', async () => {
    await closeVectorStores();
    fs.rmSync(lanceDir, { recursive: true, force: true });

    const audit = await auditVectorIndex();
    expect(audit).toMatchObject({ ok: false, missing: [manualId], unreadable: false });
    expect(audit.ok === false && audit.error).toMatch(/lacks the vectors of 1 of 1/);
    const report = await healthVectors(false);
    expect(report.degraded).toBe(true);
    expect(report.ok).toBe(true); // still serving: the database and files are fine
    expect(await denseHits()).toBe(0);

    // The worker's audit marks the manual for re-embedding; its re-embed job rebuilds the vectors.
    startIngestWorker();
    await vi.waitFor(async () => expect(await auditVectorIndex()).toEqual({ ok: true, manuals: 1 }), { timeout: 120_000, interval: 250 });
    await stopIngestWorker();
    expect(await denseHits()).toBeGreaterThan(10);
    await healthVectors(true);
  }, 240_000);

  it('a truncated data file: the index cannot be read, so the repair drops it and the manuals are re-embedded', async () => {
    await closeVectorStores();
    const dataDir = path.join(lanceDir, 'chunks.lance', 'data');
    const files = fs.readdirSync(dataDir).map((f) => path.join(dataDir, f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2));

    const audit = await auditVectorIndex();
    expect(audit).toMatchObject({ ok: false, unreadable: true, missing: [manualId] });
    expect(audit.ok === false && audit.error).toMatch(/cannot be read/);

    expect(await repairVectorIndex()).toMatchObject({ ok: false, unreadable: true });
    expect(await reembedStaleManuals()).toBe(1);
    expect(await auditVectorIndex()).toEqual({ ok: true, manuals: 1 });
    expect(await denseHits()).toBeGreaterThan(10);
  }, 120_000);
});
