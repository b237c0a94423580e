/**
 * "Which device?" over the API and MCP: POST /api/v1/ask and the MCP `ask` tool return
 * a `clarify` reply's choices for a question naming no device in a library of near-identical
 * manuals (lib/sample/family.ts), and asking again with `device` set to a choice answers from it.
 * Real handlers behind a real HTTP server, the real pipeline; nothing mocked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAsk } from '@/lib/api/ask';
import { createApiKey } from '@/lib/api/keys';
import { ingestManual } from '@/lib/ingest/pipeline';
import { closeIngestStack } from '@/lib/ingest/testing/teardown';
import { acceptUpload } from '@/lib/manuals/service';
import { generateFamily, type FamilyVariant } from '@/lib/sample/family';
import { baseUrlOf, handleMcpRequest } from './http';

const OFFLINE = { agent: { llm: null, vlm: null } };
const QUESTION = 'What is the output relay rating?';
let server: http.Server;
let base: string;
let key: string;
const ids = new Map<string, string>();
let variants: FamilyVariant[] = [];

async function* bytesOf(data: Uint8Array) {
  yield data;
}

beforeAll(async () => {
  const family = await generateFamily(6);
  variants = family.map((f) => f.variant);
  for (const f of family) {
    const { manual } = await acceptUpload(bytesOf(f.pdf), f.variant.fileName, 'owner');
    expect((await ingestManual(manual.id))?.status).toBe('ready');
    ids.set(f.variant.model, manual.id);
  }
  key = (await createApiKey('alice', 'clarify test')).key;
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    const response = req.url === '/api/v1/ask' ? await handleAsk(request, baseUrlOf(request), OFFLINE) : await handleMcpRequest(request, OFFLINE);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await closeIngestStack();
});

interface Reply {
  answer: string;
  mode?: string;
  choices?: Array<{ manual: string; device: string; page: number; previewUrl: string }>;
  pages?: Array<{ manual: string }>;
  sources: Array<{ manual: string }>;
}

const ask = async (body: object): Promise<Reply> => {
  const res = await fetch(`${base}/api/v1/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
};

describe('clarify over /api/v1/ask and MCP ask', () => {
  it('/api/v1/ask returns the choices; asking again with `device` answers from that manual', async () => {
    const first = await ask({ question: QUESTION });
    expect(first.mode).toBe('clarify');
    expect(first.answer).toMatch(/^Which device\?/);
    expect(first.choices!.length).toBeGreaterThanOrEqual(2);
    for (const c of first.choices!) {
      expect([...ids.values()]).toContain(c.manual);
      expect(c.device).toMatch(/TR-6\d0/);
      expect(c.previewUrl).toContain(`${base}/manuals/${c.manual}?page=${c.page}`);
    }
    const pick = first.choices![1];
    const v = variants.find((x) => ids.get(x.model) === pick.manual)!;
    const second = await ask({ question: QUESTION, device: pick.manual });
    expect(second.mode).toBe('answer');
    expect(second.answer).toContain(v.relayRating);
    expect(second.sources.every((s) => s.manual === pick.manual)).toBe(true);
  });

  it('MCP ask returns the choices, and answers with `device`', async () => {
    const client = new Client({ name: 'clarify-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const first = (await client.callTool({ name: 'ask', arguments: { question: QUESTION } })).structuredContent as unknown as Reply;
      expect(first.mode).toBe('clarify');
      expect(first.choices!.length).toBeGreaterThanOrEqual(2);
      const pick = first.choices![0];
      const v = variants.find((x) => ids.get(x.model) === pick.manual)!;
      const second = (await client.callTool({ name: 'ask', arguments: { question: QUESTION, device: pick.manual } })).structuredContent as unknown as Reply;
      expect(second.mode).toBe('answer');
      expect(second.answer.slice(0, 40)).toContain(v.model);
      expect(second.answer).toContain(v.relayRating);
    } finally {
      await client.close();
    }
  });
});
