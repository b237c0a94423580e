/** DNS rebinding: the server answers only for loopback, its own addresses, PUBLIC_URL's host and MC_ALLOWED_HOSTS. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostName, hostRefusal, isAllowedHost, type HostPolicy } from './allowed-hosts';
import { installRequestHooks } from './request-hooks';

const none: HostPolicy = { allowedHosts: [] };

describe('isAllowedHost', () => {
  it('accepts loopback names and addresses on any port', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:3000', '127.1.2.3', '[::1]:3000', 'app.localhost:3000', 'LOCALHOST'])
      expect(isAllowedHost(host, none), host).toBe(true);
  });

  it('refuses other names, malformed values and names that only contain a loopback name', () => {
    for (const host of ['rebind.attacker.example:3000', 'localhost.attacker.example', '127.0.0.1.nip.io', 'a b', 'evil.example/x', 'user@localhost', ''])
      expect(isAllowedHost(host, none), host).toBe(false);
  });

  it('accepts PUBLIC_URL host and configured names', () => {
    const policy: HostPolicy = { publicUrl: 'https://Manuals.Example.com', allowedHosts: ['shop-pc.lan'] };
    expect(isAllowedHost('manuals.example.com', policy)).toBe(true);
    expect(isAllowedHost('manuals.example.com:443', policy)).toBe(true);
    expect(isAllowedHost('shop-pc.lan:3000', policy)).toBe(true);
    expect(isAllowedHost('other.example.com', policy)).toBe(false);
  });

  it("accepts this machine's own interface addresses, not other addresses", () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (own) expect(isAllowedHost(`${own.address}:3000`, none)).toBe(true);
    expect(isAllowedHost('203.0.113.7:3000', none)).toBe(false);
  });

  it('reads the host name without port or brackets', () => {
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName('Example.COM:8080')).toBe('example.com');
  });
});

describe('hostRefusal', () => {
  it('checks X-Forwarded-Host too, every entry of it', () => {
    expect(hostRefusal({ host: '127.0.0.1:3000' }, none)).toBeNull();
    expect(hostRefusal({ host: '127.0.0.1:3000', forwardedHost: 'rebind.attacker.example' }, none)).toMatch(
      /does not answer for the host "rebind.attacker.example"/,
    );
    expect(hostRefusal({ host: '127.0.0.1:3000', forwardedHost: 'localhost, rebind.attacker.example' }, none)).not.toBeNull();
    expect(hostRefusal({}, none)).toMatch(/names no host/);
  });
});

describe('the server hook', () => {
  let server: http.Server;
  let port: number;
  let handled = 0;

  beforeAll(async () => {
    installRequestHooks(() => none);
    server = http.createServer((_req, res) => {
      handled++;
      res.setHeader('set-cookie', 'mc_owner=x');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (host: string, method = 'GET') =>
    new Promise<{ status: number; cookie?: string[]; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path: '/', headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie'], body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers 421 with no cookie for a rebound name, before the app runs', async () => {
    const before = handled;
    for (const method of ['GET', 'DELETE']) {
      const res = await get(`rebind.attacker.example:${port}`, method);
      expect(res.status).toBe(421);
      expect(res.cookie).toBeUndefined();
      expect(JSON.parse(res.body).code).toBe('host_not_allowed');
    }
    expect(handled).toBe(before);
  });

  it('passes loopback hosts to the app', async () => {
    const res = await get(`localhost:${port}`);
    expect(res.status).toBe(200);
    expect(res.cookie).toEqual(['mc_owner=x']);
  });
});
