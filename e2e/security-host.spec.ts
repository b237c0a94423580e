/**
 * DNS rebinding against the built server: a page on another site that points its own name at this
 * machine sends that name as Host. The server refuses such requests before the app runs: no owner
 * cookie, no listing, no delete, no server action. Loopback names still work.
 */
import http from 'node:http';
import { expect, test } from './fixtures';

const port = Number(process.env.E2E_PORT ?? 3107);
const rebound = `rebind.attacker.example:${port}`;

interface Answer {
  status: number;
  cookie?: string[];
  body: string;
}

/** A request with a Host of our choosing (fetch does not let a caller set Host). */
function send(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a rebound host name gets 421 and no cookie on every path; loopback names are served', async () => {
  const home = await send('GET', '/', { host: rebound });
  expect(home.status).toBe(421);
  expect(home.cookie).toBeUndefined();
  expect(JSON.parse(home.body)).toMatchObject({ code: 'host_not_allowed' });

  // A browser of this machine holds a valid owner cookie; the rebound page's requests carry it.
  const local = await send('GET', '/', { host: `localhost:${port}` });
  expect(local.status).toBe(200);
  const cookie = local.cookie?.find((c) => c.startsWith('mc_owner='))?.split(';')[0];
  expect(cookie, 'a loopback name gets the owner cookie').toBeTruthy();
  const asRebound = { host: rebound, origin: `http://${rebound}`, cookie: cookie! };

  const listed = await send('GET', '/api/manuals', asRebound);
  expect(listed.status).toBe(421);
  expect(listed.body).not.toContain('"manuals"');
  expect((await send('DELETE', '/api/manuals/any-id', asRebound)).status).toBe(421);
  expect((await send('POST', '/settings', { ...asRebound, 'next-action': 'x', 'content-type': 'text/plain' })).status).toBe(421);
  expect((await send('GET', '/api/health', { host: rebound })).status).toBe(421);

  // X-Forwarded-Host is a name too: a loopback Host with a rebound forwarded name is refused.
  expect((await send('GET', '/api/manuals', { host: `127.0.0.1:${port}`, 'x-forwarded-host': rebound, cookie: cookie! })).status).toBe(421);
  expect((await send('GET', '/api/manuals', { host: `127.0.0.1:${port}`, cookie: cookie! })).status).toBe(200);
});
