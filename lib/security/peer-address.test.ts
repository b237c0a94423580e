/** A client cannot choose its per-address bucket by sending its own X-Forwarded-For. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientAddress } from '../config/network';
import { installRequestHooks } from './request-hooks';

let server: http.Server;
let url: string;

beforeAll(async () => {
  installRequestHooks(() => ({ allowedHosts: [] }));
  server = http.createServer((req, res) => res.end(String(req.headers['x-forwarded-for'] ?? '')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const seen = async (headers: Record<string, string>) => new Headers({ 'x-forwarded-for': await (await fetch(url, { headers })).text() });

it('appends the socket address, so the last entry is always the peer', async () => {
  expect((await seen({})).get('x-forwarded-for')).toBe('127.0.0.1');
  const spoofed = await seen({ 'x-forwarded-for': '203.0.113.9' });
  expect(spoofed.get('x-forwarded-for')).toBe('203.0.113.9, 127.0.0.1');
  // No trusted proxy: the socket address, whatever the client wrote.
  expect(clientAddress(spoofed, 0)).toBe('127.0.0.1');
  // One trusted proxy (here the peer): the entry it wrote.
  expect(clientAddress(spoofed, 1)).toBe('203.0.113.9');
  // A client's own entry left of the proxy's is never used.
  expect(clientAddress(await seen({ 'x-forwarded-for': '10.0.0.1, 203.0.113.9' }), 1)).toBe('203.0.113.9');
});
