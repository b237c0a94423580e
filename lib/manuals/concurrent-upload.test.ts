/**
 * Ten concurrent uploads of one file. Every one passes the dedupe lookup before
 * any row exists; the sha256 is unique, so one insert wins. The others used to answer 500 and
 * leave their `source.pdf` behind; now they get the winning manual as a duplicate (the route
 * answers 200 with its id, as for any re-upload) and remove what they wrote.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { filesDir } from '@/lib/ingest/paths';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { generateSampleManual, SAMPLE_MANUAL_FILE } from '@/lib/sample';
import { listManuals } from '@/lib/store/manuals';
import { acceptUpload } from './service';

async function* bytesOf(data: Uint8Array) {
  yield data;
}

afterAll(async () => {
  await closeIngestStack();
});

describe('concurrent uploads of the same file', () => {
  it('make one manual; the others get it as a duplicate and leave no file behind', async () => {
    const { pdf } = await generateSampleManual();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => acceptUpload(bytesOf(pdf), SAMPLE_MANUAL_FILE, `concurrent-owner-${String(i).padStart(2, '0')}`)),
    );
    const created = results.filter((r) => !r.duplicate);
    expect(created).toHaveLength(1);
    const id = created[0].manual.id;
    expect(results.map((r) => r.manual.id)).toEqual(Array(10).fill(id));
    expect((await listManuals()).map((m) => m.id)).toEqual([id]);
    // One manual folder (the winner's source.pdf); no orphaned folder and no upload left half-way.
    expect(fs.readdirSync(filesDir('manuals'))).toEqual([id]);
    expect(fs.readdirSync(filesDir('manuals', id))).toContain('source.pdf');
    expect(fs.readdirSync(filesDir('uploads'))).toEqual([]);
  });
});
