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
