/**
 * The built server on loopback, as an outsider: hostile uploads cannot take the
 * server down, cookieless requests create nothing and hit 429 in a flood, foreign origins and
 * oversized bodies are refused. (Sign-in and roles: e2e/security-access.spec.ts.)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { bombPdf, chainBombPdf, writeZerosPdf } from '../lib/pdf-worker/testing/hostile-pdfs';
import { expect, test } from './fixtures';
import { peakRssMb, resetPeakRss } from './process-peak';

const base = () => `http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-e2e-hostile-'));
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The owner cookie a browser gets on its first page. */
async function browserCookie(): Promise<string> {
  const res = await fetch(`${base()}/signin`, { redirect: 'manual' });
  await res.arrayBuffer();
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  expect(cookie, 'the first page sets the owner cookie').toMatch(/^mc_owner=/);
  return cookie!;
}

interface Health {
  ok: boolean;
  pid: number;
  dataDir: { path: string };
  memory: { rssMb: number; worker: { pid: number } | null };
  restarts: { worker: number; pdfWorkers: number };
}

/**
 * Runs `attack` while polling /api/health every 250 ms; every poll must answer (a 5 s abort is the
 * hang detector). Returns the attack's result, the slowest health answer and the peak server RSS.
 */
async function underAttack<T>(attack: () => Promise<T>) {
  let stop = false;
  let slowestMs = 0;
  let peakRssMb = 0;
  let polls = 0;
  const poller = (async () => {
    while (!stop) {
      const t0 = performance.now();
      const res = await fetch(`${base()}/api/health`, { signal: AbortSignal.timeout(5000) });
      const health = (await res.json()) as Health;
      expect(res.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - t0);
      peakRssMb = Math.max(peakRssMb, health.memory.rssMb);
      polls++;
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    return { result: await attack(), slowestMs, peakRssMb, polls };
  } finally {
    stop = true;
    await poller;
    const figures = `${polls} health polls, slowest ${Math.round(slowestMs)} ms, peak server RSS ${peakRssMb} MB`;
    test.info().annotations.push({ type: 'health under attack', description: figures });
    console.log(`[${test.info().title}] ${figures}`);
  }
}

async function upload(file: string, cookie: string) {
  const res = await fetch(`${base()}/api/manuals`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/pdf', 'x-file-name': path.basename(file), 'content-length': String(fs.statSync(file).size) },
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as { error?: string; code?: string; manual?: { id: string } } };
}

async function expectNothingLeft(fileName: string) {
  const health = (await (await fetch(`${base()}/api/health`)).json()) as Health;
  const uploads = path.join(health.dataDir.path, 'uploads');
  expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  const cookie = await browserCookie();
  const { manuals } = (await (await fetch(`${base()}/api/manuals`, { headers: { cookie } })).json()) as { manuals: Array<{ fileName: string }> };
  expect(manuals.map((m) => m.fileName)).not.toContain(fileName);
}

test.describe('hostile uploads (findings 1 and 2)', () => {
  test.setTimeout(300_000);

  test('%PDF-1.4 + 150 MB of zeros: refused with a reason, the server stays up, nothing left', async () => {
    const file = path.join(scratch, 'zeros.pdf');
    writeZerosPdf(file, 150);
    const cookie = await browserCookie();
    const { result, peakRssMb } = await underAttack(() => upload(file, cookie));
    expect(result.status).toBe(422);
    expect(result.body.error).toMatch(/damaged|limits/);
    expect(peakRssMb).toBeLessThan(700);
    await expectNothingLeft('zeros.pdf');
  });

  test('a decompression bomb (1 MB inflating to 1 GB): refused as a bomb, the server stays up, nothing left', async () => {
    const file = path.join(scratch, 'bomb.pdf');
    fs.writeFileSync(file, await bombPdf(1024));
    const cookie = await browserCookie();
    const { result, peakRssMb } = await underAttack(() => upload(file, cookie));
    expect(result.status).toBe(422);
    expect(result.body.error).toMatch(/decompression bomb/);
    expect(peakRssMb).toBeLessThan(700);
    await expectNothingLeft('bomb.pdf');
  });
});

test.describe('filter chains the upload scan cannot read', () => {
  test.setTimeout(300_000);

  test('a double-Flate page (1.5 KB inflating to 400 MB): its ingest fails with the reason, the worker and the server stay under 700 MB', async () => {
    const file = path.join(scratch, 'double-flate.pdf');
    fs.writeFileSync(file, await chainBombPdf('double-flate', 400));
    const before = (await (await fetch(`${base()}/api/health`)).json()) as Health;
    const worker = before.memory.worker?.pid;
    expect(worker, 'the server runs its ingest worker').toBeTruthy();
    // High-water marks from here on: the decode happens between two health polls.
    resetPeakRss(worker!);
    resetPeakRss(before.pid);
    const cookie = await browserCookie();
    // The upload scan inflates one Flate layer and sees a small stream: the file is accepted.
    const { result } = await underAttack(() => upload(file, cookie));
    expect(result.status).toBe(201);
    const id = result.body.manual!.id;
    await expect
      .poll(
        async () => {
          const { manuals } = (await (await fetch(`${base()}/api/manuals`, { headers: { cookie } })).json()) as {
            manuals: Array<{ id: string; status: string; error: string | null }>;
          };
          return manuals.find((m) => m.id === id);
        },
        { timeout: 240_000, intervals: [500] },
      )
      .toMatchObject({ status: 'failed', error: expect.stringMatching(/decompression bomb/) });
    const after = (await (await fetch(`${base()}/api/health`)).json()) as Health;
    // Refused by the decode caps inside the same worker, not by a memory kill and restart.
    expect(after.memory.worker?.pid).toBe(worker);
    expect(after.restarts.worker).toBe(before.restarts.worker);
    const workerPeak = peakRssMb(worker!);
    const serverPeak = peakRssMb(before.pid);
    console.log(`[double-Flate] ingest worker peak ${workerPeak} MB, server peak ${serverPeak} MB`);
    expect(workerPeak).toBeLessThan(700);
    expect(serverPeak).toBeLessThan(700);
  });
});

test.describe('requests without a cookie (findings 3 and 4)', () => {
  test('writes without a cookie are refused (401) and set no cookie: no rows, no owner minted', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/chat', JSON.stringify({ sessionId: 'a'.repeat(22), question: 'hello?' })],
      ['POST', '/api/manuals', '%PDF-1.4\n'],
      ['DELETE', '/api/manuals/some-manual-id', undefined],
      ['POST', '/api/manuals/some-manual-id/password', JSON.stringify({ password: 'x' })],
    ] as const) {
      const res = await fetch(`${base()}${url}`, { method, body, headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.headers.get('set-cookie'), `${method} ${url}`).toBeNull();
    }
  });

  test('a cookieless flood from one address hits 429', async () => {
    // From its own loopback address (the socket's address is the bucket; a client's own
    // X-Forwarded-For is not trusted), so the rest of the suite, from 127.0.0.1, keeps its limits.
    const statuses: number[] = [];
    for (let i = 0; i < 130 && !statuses.includes(429); i++) {
      const res = await postFrom('127.0.0.77', '/api/chat', JSON.stringify({ sessionId: 'flood-session-1', question: 'hi?' }));
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.retryAfter)).toBeGreaterThan(0);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});

/** A JSON POST whose socket comes from `localAddress` (any 127.x address reaches the server on Linux). */
function postFrom(localAddress: string, urlPath: string, body: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base()}${urlPath}`,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test.describe('cross-origin writes and body sizes (findings 5 and 6)', () => {
  test('writes from another site are refused (403) even with the cookie', async () => {
    const cookie = await browserCookie();
    const evil = { cookie, origin: 'https://evil.example' };
    const chat = await fetch(`${base()}/api/chat`, {
      method: 'POST',
      headers: { ...evil, 'content-type': 'text/plain' },
      body: JSON.stringify({ sessionId: 'b'.repeat(22), question: 'hi' }),
    });
    expect(chat.status).toBe(403);
    const up = await fetch(`${base()}/api/manuals`, { method: 'POST', headers: { ...evil, 'x-file-name': 'x.pdf' }, body: '%PDF-1.4\n' });
    expect(up.status).toBe(403);
    const del = await fetch(`${base()}/api/manuals/some-id`, { method: 'DELETE', headers: evil });
    expect(del.status).toBe(403);
    // The same request from this origin passes the guard (and fails later for its own reasons).
    const own = await fetch(`${base()}/api/manuals/some-id`, { method: 'DELETE', headers: { cookie, origin: base() } });
    expect(own.status).toBe(404);
  });

  test('oversized JSON bodies are refused (413) before they are parsed', async () => {
    const cookie = await browserCookie();
    const big = JSON.stringify({ sessionId: 'c'.repeat(22), question: 'x'.repeat(5 * 1024 * 1024) });
    const chat = await fetch(`${base()}/api/chat`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: big });
    expect(chat.status).toBe(413);
    const pw = await fetch(`${base()}/api/manuals/some-id/password`, {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ password: 'p'.repeat(100_000) }),
    });
    expect(pw.status).toBe(413);
  });
});
