import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteManual } from '../manuals/service';
import { closeVectorStores } from '../providers/vectorstore';
import { closeDb } from '../store/db';
import { listManuals } from '../store/manuals';
import { seedSampleManual } from './startup';

afterAll(async () => {
  await closeVectorStores();
  await closeDb();
});

describe('first-run sample manual', () => {
  it('queues the generated sample once, and does not bring it back after the user deletes it', async () => {
    const first = await seedSampleManual();
    expect(first.seeded).toBe(true);
    const manuals = await listManuals();
    expect(manuals).toHaveLength(1);
    expect(manuals[0]).toMatchObject({ fileName: 'acme-hx200-manual.pdf', status: 'queued', pageCount: 10, ownerId: 'admin' }); // the administrator owns what no one uploaded

    expect((await seedSampleManual()).seeded).toBe(false);
    await deleteManual(first.manualId!, 'admin');
    expect((await seedSampleManual()).seeded).toBe(false);
    expect(await listManuals()).toHaveLength(0);
  });
});

describe('orphaned files at start', () => {
  it('removes a killed upload’s .part file and the folder of a manual deleted mid-ingest, keeping the library’s', async () => {
    const { createManual } = await import('../store/manuals');
    const { filesDir, manualDir } = await import('../ingest/paths');
    const { removeOrphanedFiles } = await import('./startup');
    await createManual({ id: 'live-manual', title: 'live', fileName: 'live.pdf', sha256: 'a'.repeat(64), sizeBytes: 1 });
    for (const id of ['live-manual', 'deleted-mid-ingest']) {
      fs.mkdirSync(path.join(manualDir(id), 'pages'), { recursive: true });
      fs.writeFileSync(path.join(manualDir(id), 'pages', '1.png'), 'png');
    }
    fs.mkdirSync(filesDir('uploads'), { recursive: true });
    fs.writeFileSync(filesDir('uploads', 'killed.part'), 'half an upload');

    expect(await removeOrphanedFiles()).toEqual({ uploads: 1, manuals: 1 });
    expect(fs.existsSync(filesDir('uploads', 'killed.part'))).toBe(false);
    expect(fs.existsSync(manualDir('deleted-mid-ingest'))).toBe(false);
    expect(fs.existsSync(path.join(manualDir('live-manual'), 'pages', '1.png'))).toBe(true);
  });
});
