/**
 * The ColQwen client against a real HTTP server on 127.0.0.1 (random port) that plays the
 * worker: shapes, retries on a flaky worker, timeouts, non-retryable errors, caching.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '@/lib/runtime/abort';
import { VectorCache } from '../embeddings/cache';
import { ColQwenClient, ColQwenError, ColQwenMultiVectorEmbedder } from './colqwen';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

const DIM = 4;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-colqwen-'));
let server: http.Server;
let url: string;
let handler: Handler;
const log: Array<{ method: string; path: string; body: unknown }> = [];

/** A well-behaved worker: one vector per word of a query, `n` patch vectors per image (n = byte length % 5 + 2). */
const worker: Handler = (req, body, res) => {
  const json = (status: number, data: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(data));
  };
  if (req.method === 'GET' && req.url === '/health') return json(200, { model: 'test/colqwen-tiny', dim: DIM });
  const parsed = body ? JSON.parse(body) : {};
  if (req.method === 'POST' && req.url === '/embed/query') {
    return json(200, {
      embeddings: (parsed.queries as string[]).map((q) => q.split(/\s+/).map((w, i) => [w.length, i, 1, 0])),
    });
  }
  if (req.method === 'POST' && req.url === '/embed/images') {
    return json(200, {
      embeddings: (parsed.images as string[]).map((b64) => {
        const n = (Buffer.from(b64, 'base64').length % 5) + 2;
        return Array.from({ length: n }, (_, i) => [1, i, 0, 2]);
      }),
    });
  }
  json(404, { error: 'no route' });
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      log.push({ method: req.method ?? '', path: req.url ?? '', body: body ? JSON.parse(body) : undefined });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  handler = worker;
  log.length = 0;
  slept.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Backoffs are recorded, not waited for (the policy's delays are retry.test.ts's business). */
const slept: number[] = [];
const fast = { maxAttempts: 4, timeoutMs: 2000, sleep: async (ms: number) => void slept.push(ms) };

describe('ColQwenClient', () => {
  beforeAll(() => {
    handler = worker;
  });

  it('reads /health and embeds queries and images with the documented shapes', async () => {
    const client = new ColQwenClient({ url: `${url}/`, ...fast });
    expect(await client.health()).toEqual({ model: 'test/colqwen-tiny', dim: DIM });

    const [bag] = await client.embedQueries(['neopixel data pin']);
    expect(log[1]).toEqual({ method: 'POST', path: '/embed/query', body: { queries: ['neopixel data pin'] } });
    expect(bag).toHaveLength(3);
    expect(Math.hypot(...bag[0])).toBeCloseTo(1, 5);

    const img = Buffer.from('fake png bytes').toString('base64');
    const bags = await client.embedImages([img, img]);
    expect(log[2]).toEqual({ method: 'POST', path: '/embed/images', body: { images: [img, img] } });
    // 'fake png bytes' is 14 bytes → 14 % 5 + 2 = 6 patch vectors each.
    expect(bags.map((b) => b.length)).toEqual([6, 6]);
  });

  it('retries a flaky worker (503, then a dropped connection) and then succeeds', async () => {
    let n = 0;
    handler = (req, body, res) => {
      n++;
      if (n === 1) return res.writeHead(503).end('warming up');
      if (n === 2) return res.destroy();
      worker(req, body, res);
    };
    const client = new ColQwenClient({ url, ...fast });
    const [bag] = await client.embedQueries(['fuse rating']);
    expect(bag).toHaveLength(2);
    expect(client.attempts).toBe(3);
    expect(slept).toHaveLength(2);
    expect(log.map((l) => l.path)).toEqual(['/embed/query', '/embed/query', '/embed/query']);
  });

  it('honours Retry-After on 429', async () => {
    let n = 0;
    handler = (req, body, res) => {
      if (++n === 1) return res.writeHead(429, { 'retry-after': '0.2' }).end('slow down');
      worker(req, body, res);
    };
    const client = new ColQwenClient({ url, ...fast });
    await client.embedQueries(['x']);
    expect(slept).toEqual([200]); // the worker's 200 ms, not the backoff
    expect(client.attempts).toBe(2);
  });

  it('fails at once when Retry-After asks for longer than the retry policy waits', async () => {
    handler = (_req, _body, res) => res.writeHead(503, { 'retry-after': '3600' }).end('maintenance');
    const client = new ColQwenClient({ url, ...fast });
    const err = await client.embedQueries(['x']).catch((e) => e);
    expect(err).toMatchObject({ name: 'ColQwenError', status: 503, retryable: true, retryAfterMs: 3_600_000 });
    expect(err.message).toMatch(/answered 503: maintenance \(it asked to retry after 3600 s\)/);
    expect(slept).toEqual([]);
    expect(log).toHaveLength(1);
  });

  it('gives up after the retries with the last error', async () => {
    handler = (_req, _body, res) => res.writeHead(500).end('CUDA out of memory');
    const client = new ColQwenClient({ url, ...fast, maxAttempts: 3 });
    const err = await client.embedQueries(['x']).catch((e) => e);
    expect(err).toBeInstanceOf(ColQwenError);
    expect(err.message).toMatch(/answered 500: CUDA out of memory \(gave up after 3 attempts\)/);
    expect(log).toHaveLength(3);
  });

  it('does not retry a client error', async () => {
    handler = (_req, _body, res) => res.writeHead(413).end('payload too large');
    const client = new ColQwenClient({ url, ...fast });
    const err = await client.embedImages(['aGk=']).catch((e) => e);
    expect(err).toMatchObject({ name: 'ColQwenError', status: 413, retryable: false });
    expect(log).toHaveLength(1);
  });

  it('times out a hanging request and retries it', async () => {
    let n = 0;
    handler = (req, body, res) => {
      if (++n === 1) return; // never answers
      worker(req, body, res);
    };
    // A real timeout (the client's own AbortSignal.timeout), long enough that the answered retry never meets it.
    const client = new ColQwenClient({ url, ...fast, timeoutMs: 1000 });
    const [bag] = await client.embedQueries(['a b']);
    expect(bag).toHaveLength(2);
    expect(client.attempts).toBe(2);
  });

  it('reports an unreachable worker after retrying', async () => {
    const client = new ColQwenClient({ url: 'http://127.0.0.1:1', ...fast, maxAttempts: 2 });
    await expect(client.health()).rejects.toThrow(/unreachable.*gave up after 2 attempts/);
  });

  it('rejects a response with the wrong number of bags', async () => {
    handler = (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embeddings: [] }));
    const client = new ColQwenClient({ url, ...fast });
    await expect(client.embedQueries(['a'])).rejects.toThrow(/returned 0 embeddings for 1 inputs/);
  });

  it('stops waiting when the caller aborts', async () => {
    handler = (_req, _body, res) => res.writeHead(503).end();
    const ac = new AbortController();
    // The real sleep, with a ten-minute backoff the caller aborts as soon as it starts: a backoff the
    // abort did not cut short would outlast the test's timeout.
    const client = new ColQwenClient({
      url,
      maxAttempts: 6,
      backoffMs: 600_000,
      maxBackoffMs: 600_000,
      timeoutMs: 2000,
      sleep: (ms, signal) => {
        ac.abort(new Error('user pressed stop'));
        return sleep(ms, signal);
      },
    });
    await expect(client.embedQueries(['x'], { signal: ac.signal })).rejects.toThrow('user pressed stop');
    expect(log).toHaveLength(1);
  });
});

describe('ColQwenMultiVectorEmbedder', () => {
  beforeAll(() => {
    handler = worker;
  });

  it('embeds page images, pools them, and serves a re-ingest from the cache', async () => {
    const pages = ['p1.png', 'p2.png', 'p3.png'].map((name, i) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, Buffer.alloc(10 + i, i));
      return { text: `page ${i + 1}`, imagePath: file };
    });
    const cache = await VectorCache.open(path.join(tmp, 'embeddings.db'));
    try {
      const mv = await ColQwenMultiVectorEmbedder.create({ url, ...fast, cache, imageBatchSize: 2, maxVectorsPerPage: 3 });
      expect(mv).toMatchObject({ provider: 'colqwen', dimensions: DIM, maxVectorsPerPage: 3, id: 'colqwen:test/colqwen-tiny:4:pool3' });

      const bags = await mv.embedPages(pages);
      // 10, 11, 12 bytes → 2, 3, 4 raw vectors → pooled to ≤ 3.
      expect(bags.map((b) => b.length)).toEqual([2, 3, 3]);
      const imageCalls = log.filter((l) => l.path === '/embed/images');
      expect(imageCalls.map((c) => (c.body as { images: string[] }).images.length)).toEqual([2, 1]);
      expect((imageCalls[0].body as { images: string[] }).images[0]).toBe(fs.readFileSync(pages[0].imagePath).toString('base64'));

      const again = await mv.embedPages(pages);
      expect(log.filter((l) => l.path === '/embed/images')).toHaveLength(2);
      expect(again.map((b) => b.length)).toEqual([2, 3, 3]);

      const q = await mv.embedQuery('two words');
      expect(q).toHaveLength(2);
    } finally {
      cache.close();
    }
  });

  it('refuses pages without a rendered image', async () => {
    const mv = await ColQwenMultiVectorEmbedder.create({ url, ...fast });
    await expect(mv.embedPages([{ text: 'no image' }])).rejects.toThrow(/has no imagePath/);
  });

  it('rejects vectors whose size disagrees with /health', async () => {
    const mv = await ColQwenMultiVectorEmbedder.create({ url, ...fast });
    handler = (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embeddings: [[[1, 2, 3]]] }));
    await expect(mv.embedQuery('x')).rejects.toThrow(/3-dim vectors, \/health said 4/);
  });
});
