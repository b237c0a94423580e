/**
 * A full disk during an upload. A file that cannot fit (its declared size plus the
 * MC_MIN_FREE_MB reserve) is refused before a byte is read: HTTP 507 from the route, a disk_full
 * error from the library, nothing written or recorded. A disk that fills up while the upload
 * streams (a real ENOSPC from /dev/full) removes the partial file and reports it clearly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/api/manuals/route';
import { acceptUpload } from '@/lib/manuals/service';
import { closeDb } from '@/lib/store/db';
import { listManuals } from '@/lib/store/manuals';
import { freeBytes } from '@/lib/runtime/disk-space';
import { writeUpload } from './upload';

// The upload route checks who asks before it reads the body: the requests carry a browser's owner cookie.
vi.mock('next/headers', async (importOriginal) => (await import('@/lib/auth/testing/owner-request')).withOwnerCookie(importOriginal, 'upload-test-owner-01'));

const DISK_FULL = /disk/i;
const HUGE_MB = String(100_000_000); // 100 TB of reserve: no test machine has that free

/** A body that records whether anyone read it. */
function body(chunks: number, chunkBytes: number) {
  const state = { read: 0 };
  async function* gen() {
    for (let i = 0; i < chunks; i++) {
      state.read++;
      yield new Uint8Array(chunkBytes).fill(0x25);
    }
  }
  return { stream: gen(), state };
}

const uploadsDir = () => path.join(process.env.DATA_DIR!, 'uploads');
const uploadsLeft = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : []);

afterEach(async () => {
  delete process.env.MC_MIN_FREE_MB;
  await closeDb();
});

describe('an upload the disk cannot take is refused before it is read', () => {
  it('the route answers 507 with the reason when the reserve is not free', async () => {
    process.env.MC_MIN_FREE_MB = HUGE_MB;
    const res = await POST(
      new Request('http://localhost/api/manuals', {
        method: 'POST',
        headers: { 'content-length': '2048', 'x-file-name': 'big.pdf' },
        body: new Uint8Array(2048),
      }),
    );
    expect(res.status).toBe(507);
    const json = (await res.json()) as { error: string; code: string };
    expect(json.code).toBe('disk_full');
    expect(json.error).toMatch(/^The server does not have enough free disk space for this file \(\d+ MB needed, \d+ MB free\)\. Ask the administrator/);
    expect(uploadsLeft()).toEqual([]);
  });

  it('a declared size larger than the free space: disk_full, the body never read, nothing recorded', async () => {
    process.env.MC_MIN_FREE_MB = '0';
    const { stream, state } = body(4, 1024);
    const petabyte = 2 ** 50;
    await expect(acceptUpload(stream, 'huge.pdf', 'owner', petabyte)).rejects.toMatchObject({ code: 'too_large' });
    // Within the size limit but beyond the disk: the disk check answers.
    process.env.MAX_UPLOAD_MB = String(2 ** 40);
    try {
      await expect(acceptUpload(stream, 'huge.pdf', 'owner', petabyte)).rejects.toMatchObject({ code: 'disk_full', message: expect.stringMatching(DISK_FULL) });
    } finally {
      delete process.env.MAX_UPLOAD_MB;
    }
    expect(state.read).toBe(0);
    expect(uploadsLeft()).toEqual([]);
    expect(await listManuals()).toEqual([]);
  });

  it('no declared size: still refused while the reserve itself is not free', async () => {
    process.env.MC_MIN_FREE_MB = HUGE_MB;
    const { stream, state } = body(1, 1024);
    await expect(acceptUpload(stream, 'x.pdf', null)).rejects.toMatchObject({ code: 'disk_full' });
    expect(state.read).toBe(0);
    expect(await listManuals()).toEqual([]);
  });
});

describe('a chunked upload (no Content-Length) is held to the reserve as its bytes arrive', () => {
  it('the route answers 507 once the reserve would be touched, stops reading and leaves nothing behind', async () => {
    const MB = 1024 * 1024;
    // The reserve: all but 64 MB of what is free now; the body is 512 MB, sent without a length.
    const free = freeBytes(process.env.DATA_DIR!);
    process.env.MC_MIN_FREE_MB = String(Math.floor(free / MB) - 64);
    const chunks = 512;
    const state = { read: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.read === chunks) return controller.close();
        state.read++;
        controller.enqueue(new Uint8Array(MB).fill(0x25));
      },
    });
    const res = await POST(
      new Request('http://localhost/api/manuals', { method: 'POST', headers: { 'x-file-name': 'chunked.pdf' }, body: stream, duplex: 'half' } as RequestInit),
    );
    expect(res.status).toBe(507);
    expect(((await res.json()) as { code: string }).code).toBe('disk_full');
    expect(state.read).toBeGreaterThan(0); // the Content-Length check had nothing to go on: the stream was counted
    expect(state.read).toBeLessThan(chunks); // and reading stopped at the reserve
    expect(uploadsLeft()).toEqual([]);
    expect(await listManuals()).toEqual([]);
  });
});

// /dev/full answers every write with ENOSPC, for root too: a real full disk, one file wide.
describe.runIf(fs.existsSync('/dev/full'))('the disk fills up while an upload streams', () => {
  it.each([
    ['a small file (the error comes when the file is closed)', 1, 1024],
    ['a large file (the error comes between chunks)', 200, 64 * 1024],
  ])('%s: the partial file is removed and the error says the disk is full', async (_label, chunks, chunkBytes) => {
    const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, 'full-'));
    const file = path.join(dir, 'upload.part');
    fs.symlinkSync('/dev/full', file);
    const { stream } = body(chunks, chunkBytes);

    const error = await writeUpload(stream, file, 100 * 1024 * 1024, 'w').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/^The server's disk filled up while saving this file/) });
    expect((error as Error).cause).toMatchObject({ code: 'ENOSPC' });
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
