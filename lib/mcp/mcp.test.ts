/**
 * The MCP server and POST /api/v1/ask driven by clients that are not ours: the MCP SDK's Client
 * over Streamable HTTP (the route's handler on a real HTTP server) and over stdio (`scripts/mcp.ts`
 * as a subprocess), and plain fetch for the API. Over the generated sample manual, ingested by the
 * real pipeline into this test's DATA_DIR.
 */
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleAsk } from '@/lib/api/ask';
import { createApiKey, revokeKey } from '@/lib/api/keys';
import { ingestManual } from '@/lib/ingest/pipeline';
import { acceptUpload } from '@/lib/manuals/service';
import { generateSampleManual, SAMPLE_MANUAL_FILE } from '@/lib/sample';
import { listAudit } from '@/lib/store/api-keys';
import { createUser, deleteUser } from '@/lib/store/users';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { getEmbedder } from '@/lib/providers/embeddings';
import type { Embedder } from '@/lib/providers/types';
import { baseUrlOf, handleMcpRequest } from './http';

const OFFLINE = { agent: { llm: null, vlm: null } };
let server: http.Server;
let base: string;
let sampleId: string;
let aliceKey: string;

async function* bytesOf(data: Uint8Array) {
  yield data;
}

/** The app's two handlers behind a real HTTP server (Node request → web Request → Node response). */
function serve(): Promise<http.Server> {
  const srv = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = req.url === '/api/v1/ask' ? await handleAsk(request, baseUrlOf(request), OFFLINE) : await handleMcpRequest(request, OFFLINE);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** Citations as every client gets them: each [k] within 1..n, first used in order 1, 2, …, and source k is the k-th. */
function expectNumbered(answer: { answer: string; sources: Array<{ ref: number }> }) {
  const cited = [...answer.answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)].flatMap((m) => m[1].split(',').map((n) => Number(n.trim())));
  expect(cited.length).toBeGreaterThan(0);
  const n = answer.sources.length;
  for (const k of cited) expect(k >= 1 && k <= n, `[${k}] is not within 1..${n}`).toBe(true);
  expect([...new Set(cited)]).toEqual(Array.from({ length: new Set(cited).size }, (_, i) => i + 1));
  expect(answer.sources.map((s) => s.ref)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
}

const textOf = (r: unknown) => ((r as { content: unknown }).content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

beforeAll(async () => {
  const { pdf } = await generateSampleManual();
  sampleId = (await acceptUpload(bytesOf(pdf), SAMPLE_MANUAL_FILE, 'owner')).manual.id;
  expect((await ingestManual(sampleId))?.status).toBe('ready');
  aliceKey = (await createApiKey('alice', 'test client')).key;
  server = await serve();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await closeIngestStack();
});

describe('MCP over Streamable HTTP', () => {
  it('lists the tools and calls each one', async () => {
    const client = await connect(aliceKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'get_page', 'list_manuals', 'search_manuals']);

    const listed = await client.callTool({ name: 'list_manuals', arguments: {} });
    expect(listed.structuredContent).toMatchObject({
      manuals: [expect.objectContaining({ id: sampleId, status: 'ready', ready: true, pages: expect.any(Number) })],
    });

    // Ground truth (lib/sample/facts.ts): the supply voltage is on page 3.
    const found = await client.callTool({ name: 'search_manuals', arguments: { query: 'supply voltage', manual: sampleId, k: 3 } });
    const passages = (found.structuredContent as { passages: Array<Record<string, unknown>> }).passages;
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(3);
    expect(passages[0]).toMatchObject({
      manual: sampleId,
      page: expect.any(Number),
      text: expect.any(String),
      score: expect.any(Number),
      previewUrl: expect.stringContaining(`${base}/manuals/${sampleId}?page=`),
    });
    expect(passages.map((p) => p.page)).toContain(3);

    const page = await client.callTool({ name: 'get_page', arguments: { manual: sampleId, page: 3 } });
    const content = page.content as Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
    expect(content[0].type).toBe('text');
    expect(content[0].text).toMatch(/page 3/);
    const image = content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const asked = await client.callTool({ name: 'ask', arguments: { question: 'What supply voltage does the HX-200 controller need?' } });
    expect(asked.isError).toBeFalsy();
    const answer = asked.structuredContent as {
      answer: string;
      sources: Array<{ ref: number; manual: string; page: number; previewUrl: string }>;
      status: string;
    };
    expect(answer.status).toBe('done');
    expectNumbered(answer);
    expect(answer.answer).toMatch(/\[\d+\]/);
    expect(answer.answer).toMatch(/24\s*V/);
    expect(answer.sources[0]).toMatchObject({
      manual: sampleId,
      page: expect.any(Number),
      previewUrl: expect.stringContaining(`${base}/manuals/${sampleId}?page=`),
    });
    await client.close();
  });

  it('serves the manuals and their pages as resources', async () => {
    const client = await connect(aliceKey);
    const { resources } = await client.listResources();
    expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: `manual://${sampleId}` })]));
    const manual = await client.readResource({ uri: `manual://${sampleId}` });
    const info = JSON.parse((manual.contents[0] as { text: string }).text) as { pages: string[] };
    expect(info.pages[2]).toBe(`manual://${sampleId}/pages/3`);
    const page = await client.readResource({ uri: info.pages[2] });
    expect((page.contents[0] as { text: string }).text.length).toBeGreaterThan(0);
    expect(page.contents[1]).toMatchObject({ mimeType: 'image/png' });
    await client.close();
  });

  it('a bad argument or an unknown manual gets a clear error', async () => {
    const client = await connect(aliceKey);
    const bad = await client.callTool({ name: 'search_manuals', arguments: { query: '', k: 500 } }).then(
      (r) => textOf(r),
      (err: Error) => err.message,
    );
    expect(bad).toMatch(/query/);
    expect(bad).toMatch(/k\b/);

    const unknown = await client.callTool({ name: 'get_page', arguments: { manual: 'no-such-manual', page: 1 } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Unknown manual "no-such-manual".*list_manuals/);

    const outOfRange = await client.callTool({ name: 'get_page', arguments: { manual: sampleId, page: 999 } });
    expect(outOfRange.isError).toBe(true);
    expect(textOf(outOfRange)).toMatch(/Page 999 is not in .* it has pages 1 to \d+/);
    await client.close();
  });

  it('refuses a missing, wrong or revoked key; audits calls without the key', async () => {
    const missing = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    await expect(connect('mc_not-a-real-key')).rejects.toThrow();

    const { key, view } = await createApiKey('bob', 'to revoke');
    const client = await connect(key);
    expect((await client.callTool({ name: 'list_manuals', arguments: {} })).isError).toBeFalsy();
    await revokeKey('bob', view.id);
    await expect(client.callTool({ name: 'list_manuals', arguments: {} })).rejects.toThrow(/revoked|401/i);
    await expect(connect(key)).rejects.toThrow();
    await expect(revokeKey('mallory', view.id)).rejects.toThrow(/not yours|already revoked/);

    const rows = await listAudit('bob');
    expect(rows.map((r) => `${r.tool}:${r.outcome}`)).toEqual(expect.arrayContaining(['mcp:list_manuals:ok', 'auth:refused']));
    expect(rows.every((r) => r.keyId === view.id && r.ms >= 0)).toBe(true);
    expect(JSON.stringify(await listAudit('alice', 200))).not.toContain(aliceKey.slice(3, 20));
    expect(JSON.stringify(rows)).not.toContain(key.slice(3, 20));
  });

  it('where sign-in is required a key acts as its creator: a removed account takes its keys along', async () => {
    process.env.MC_AUTH = 'signin';
    try {
      const admin = await createUser({ email: 'keys-admin@example.com', role: 'admin' });
      const { key } = await createApiKey(admin.id, 'team assistant');
      const client = await connect(key);
      expect((await client.callTool({ name: 'list_manuals', arguments: {} })).isError).toBeFalsy();
      await deleteUser(admin.id);
      await expect(client.callTool({ name: 'list_manuals', arguments: {} })).rejects.toThrow(/no longer exists|401/i);
      // alice is an anonymous owner from before sign-in was required: no account, so her key stops too.
      await expect(connect(aliceKey)).rejects.toThrow();
      expect((await listAudit(admin.id)).map((r) => `${r.tool}:${r.outcome}`)).toEqual(expect.arrayContaining(['mcp:list_manuals:ok', 'auth:refused']));
    } finally {
      delete process.env.MC_AUTH;
    }
  });
});

describe('POST /api/v1/ask', () => {
  const ask = (body: unknown, key?: string) =>
    fetch(`${base}/api/v1/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers with citations and sources', async () => {
    const res = await ask({ question: 'What supply voltage does the HX-200 controller need?', manuals: [sampleId] }, aliceKey);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; sources: Array<{ ref: number; page: number }>; status: string };
    expect(body.status).toBe('done');
    expectNumbered(body);
    expect(body.answer).toMatch(/\[\d+\]/);
    expect(body.answer).toMatch(/24\s*V/);
    expect(body.sources.length).toBeGreaterThan(0);
    expect((await listAudit('alice')).some((r) => r.tool === 'v1:ask' && r.outcome === 'ok')).toBe(true);
  });

  it('says what is wrong with a request, and rate-limits per key', async () => {
    expect((await ask({ question: 'x' })).status).toBe(401);
    const bad = await ask({ question: '   ', manuals: 'all' }, aliceKey);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/question.*empty.*manuals/s);
    expect(((await (await ask('not json', aliceKey)).json()) as { error: string }).error).toMatch(/must be JSON/);
    const unknown = await ask({ question: 'Supply voltage?', manuals: ['nope'] }, aliceKey);
    expect(unknown.status).toBe(400);

    process.env.API_RATE_PER_MIN = '2';
    try {
      const { key } = await createApiKey('carol', 'limited');
      expect((await ask({}, key)).status).toBe(400);
      expect((await ask({}, key)).status).toBe(400);
      const limited = await ask({}, key);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      delete process.env.API_RATE_PER_MIN;
    }
  });
});

describe('requests in flight per key and per owner', () => {
  it('beyond the caps the excess get 429 with Retry-After at once, while the others run', async () => {
    process.env.API_MAX_IN_FLIGHT_PER_KEY = '2';
    process.env.API_MAX_IN_FLIGHT_PER_OWNER = '3';
    try {
      // A slow embedder: every question that reaches the search waits here until the gate opens.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let waiting = 0;
      const real = await getEmbedder();
      const slow = new Proxy(real, {
        get(target, prop) {
          if (prop === 'embedQuery') return async (q: string) => (waiting++, await gate, target.embedQuery(q));
          const value = Reflect.get(target, prop);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as Embedder;
      const deps = { agent: { llm: null, vlm: null, embedder: slow } };
      const one = (await createApiKey('erin', 'one')).key;
      const two = (await createApiKey('erin', 'two')).key;
      const ask = (key: string) =>
        handleAsk(
          new Request('http://127.0.0.1/api/v1/ask', {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ question: 'What supply voltage does the HX-200 controller need?', manuals: [sampleId] }),
          }),
          'http://127.0.0.1',
          deps,
        );
      // Four with one key, two with the other: at most 2 per key and 3 for erin run; 3 are refused.
      const refused: Response[] = [];
      const all = [one, one, one, one, two, two].map((key) => ask(key).then((res) => (res.status === 429 && refused.push(res), res)));
      await vi.waitFor(() => expect(refused).toHaveLength(3));
      for (const res of refused) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await res.json()) as { error: string }).error).toMatch(/Too many requests running at once/);
      }
      await vi.waitFor(() => expect(waiting).toBe(3)); // the three running ones hold their slots
      open();
      const statuses = (await Promise.all(all)).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      // Slots are given back: the key runs again.
      const again = await handleAsk(
        new Request('http://127.0.0.1/api/v1/ask', { method: 'POST', headers: { authorization: `Bearer ${one}` }, body: '{}' }),
        'http://127.0.0.1',
        deps,
      );
      expect(again.status).toBe(400);
    } finally {
      delete process.env.API_MAX_IN_FLIGHT_PER_KEY;
      delete process.env.API_MAX_IN_FLIGHT_PER_OWNER;
    }
  });
});

describe('MCP over stdio (npm run mcp)', () => {
  it('lists and calls tools as the key owner; a revoked key is refused', async () => {
    const { key, view } = await createApiKey('dave', 'desktop');
    const tsx = path.resolve('node_modules/.bin/tsx');
    const env = { ...(process.env as Record<string, string>), MCP_API_KEY: key, MC_LOG_LEVEL: 'silent' };
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: tsx, args: ['scripts/mcp.ts'], env, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_manuals', 'get_page', 'list_manuals', 'ask']));
      const found = await client.callTool({ name: 'search_manuals', arguments: { query: 'supply voltage', k: 2 } });
      expect((found.structuredContent as { passages: unknown[] }).passages.length).toBeGreaterThan(0);
      await revokeKey('dave', view.id);
      const refused = await client.callTool({ name: 'list_manuals', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/revoked/);
    } finally {
      await client.close();
    }
    expect((await listAudit('dave')).map((r) => r.tool)).toEqual(expect.arrayContaining(['mcp:search_manuals']));
  }, 120_000);
});
