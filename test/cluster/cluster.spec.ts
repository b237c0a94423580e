/**
 * Two app servers (A, B) and two ingest workers (machine-1, machine-2) on one Postgres and one
 * FILES_DIR (see global-setup.ts): what one server accepts, the other lists, searches and
 * answers from; uploads spread over both workers; a worker killed mid-job loses it to the other
 * when its lease runs out; a chat started on A is shared and revoked through B.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { expect, test } from '../../e2e/fixtures';
import { ChatPage } from '../../e2e/pages/chat-page';
import { uniqueSamplePdf } from '../../e2e/sample-pdf';
import { textPdf } from './pdfs';

const skip = process.env.CLUSTER_SKIP;
const A = process.env.CLUSTER_A!;
const B = process.env.CLUSTER_B!;
const workers = JSON.parse(process.env.CLUSTER_WORKERS ?? '[]') as Array<{ host: string; pid: number; log: string }>;

test.skip(!!skip, `skipped: ${skip}`);

let db: pg.Client;
let owner: APIRequestContext;

test.beforeAll(async () => {
  if (skip) return;
  db = new pg.Client({ connectionString: process.env.CLUSTER_DATABASE_URL });
  await db.connect();
  // One person (one owner cookie, which any page sets) talking to both servers.
  owner = await playwrightRequest.newContext();
  expect((await owner.get(`${A}/signin`, { maxRedirects: 0 })).status()).toBeLessThan(500);
  expect((await owner.storageState()).cookies.length).toBeGreaterThan(0);
});

test.afterAll(async () => {
  await db?.end();
  await owner?.dispose();
});

type View = { id: string; status: string; pageCount: number | null; error: string | null };

async function upload(server: string, fileName: string, bytes: Buffer): Promise<View> {
  const res = await owner.post(`${server}/api/manuals`, {
    headers: { 'content-type': 'application/pdf', 'x-file-name': encodeURIComponent(fileName), origin: server },
    data: bytes,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { manual: View }).manual;
}

async function listed(server: string): Promise<View[]> {
  const res = await owner.get(`${server}/api/manuals`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { manuals: View[] } | View[];
  return Array.isArray(body) ? body : body.manuals;
}

async function waitReady(server: string, ids: string[], timeoutMs = 240_000) {
  await expect
    .poll(
      async () => {
        const views = (await listed(server)).filter((m) => ids.includes(m.id));
        const failed = views.find((m) => m.status === 'failed');
        if (failed) throw new Error(`${failed.id} failed: ${failed.error}`);
        return views.filter((m) => m.status === 'ready').length;
      },
      { timeout: timeoutMs, intervals: [500] },
    )
    .toBe(ids.length);
}

/** Pages and chunks in Postgres, and page images on the shared volume, of one manual. */
async function stored(id: string) {
  const count = async (table: string) => Number((await db.query(`select count(*)::int as n from ${table} where manual_id = $1`, [id])).rows[0].n);
  const dir = path.join(process.env.CLUSTER_FILES_DIR!, 'manuals', id);
  const files = (sub: string) => (fs.existsSync(path.join(dir, sub)) ? fs.readdirSync(path.join(dir, sub)).filter((f) => !f.endsWith('.tmp')).length : 0);
  return { pages: await count('pages'), chunks: await count('chunks'), images: files('pages'), thumbs: files('thumbs') };
}

const processedBy = (id: string) => workers.filter((w) => new RegExp(`\\[ingest\\] ${id}: ready`).test(fs.readFileSync(w.log, 'utf8'))).map((w) => w.host);

test('a manual uploaded through A is listed, searchable and answerable through B', async () => {
  const sample = await uniqueSamplePdf('cluster');
  const manual = await upload(A, sample.fileName, fs.readFileSync(sample.path));
  expect((await listed(B)).map((m) => m.id)).toContain(manual.id);
  await waitReady(B, [manual.id]);
  expect(await stored(manual.id)).toMatchObject({ pages: 10, images: 10, thumbs: 10 });
  expect(processedBy(manual.id)).toHaveLength(1);

  // B renders a page thumbnail from the shared FILES_DIR.
  const thumb = await owner.get(`${B}/manuals/${manual.id}/pages/3/thumb`);
  expect(thumb.status()).toBe(200);
  expect(thumb.headers()['content-type']).toMatch(/image\//);

  // Searched and answered through B, scoped to this manual: the answer cites its maintenance page.
  const res = await owner.post(`${B}/api/chat`, {
    headers: { 'content-type': 'application/json', origin: B },
    data: { sessionId: randomUUID(), question: 'How often does the HX-200 backup battery need replacing, and what type is it?', scope: [manual.id] },
  });
  expect(res.ok()).toBe(true);
  const parts = (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('data:') && !l.includes('[DONE]'))
    .map((l) => JSON.parse(l.slice(5)) as { type: string; url?: string; data?: { text?: string } });
  const cited = parts.filter((p) => p.type === 'source-url').map((p) => new URL(p.url!, B));
  expect(cited.length).toBeGreaterThan(0);
  for (const u of cited) expect(u.pathname).toBe(`/manuals/${manual.id}`);
  expect(cited.map((u) => u.searchParams.get('page'))).toContain('7');
  expect(parts.find((p) => p.type === 'finish')).toBeDefined();

  // /api/health on either server reports Postgres, FILES_DIR and both workers.
  const health = (await (await owner.get(`${A}/api/health`)).json()) as {
    ok: boolean;
    db: { dialect: string };
    files: { ok: boolean; path: string };
    queue: { workers: Array<{ host: string }> };
  };
  expect(health).toMatchObject({ ok: true, db: { dialect: 'postgres' }, files: { ok: true, path: process.env.CLUSTER_FILES_DIR } });
  expect(health.queue.workers.map((w) => w.host).sort()).toEqual(['machine-1', 'machine-2']);
});

test('a chat started on A is shared and revoked through B', async ({ page, browser }) => {
  const chat = new ChatPage(page);
  await page.goto(`${A}/`);
  await chat.ask('What is the highest system pressure it can control?');
  await chat.expectLastTurn('done');
  const chatId = await chat.chatId();
  const answer = await chat.answer().innerText();

  // The same person on B (cookies are per host, not per port): the same chat, from Postgres.
  await page.goto(`${B}/chat/${chatId}`);
  await expect(chat.answer()).toHaveText(answer);
  await chat.shareButton().click();
  // Issue 17: a public link is made only after a confirmation.
  await page.getByTestId('create-share-link').click();
  await expect(chat.shareLink()).toHaveValue(/\/share\/[A-Za-z0-9_-]{22}$/);
  const shareId = new URL(await chat.shareLink().inputValue()).pathname.split('/').pop()!;

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  expect((await viewer.goto(`${A}/share/${shareId}`))?.status()).toBe(200);
  await expect(new ChatPage(viewer).answer()).toHaveText(answer);

  await chat.revokeShare().click();
  await expect(page.getByTestId('share-revoked')).toBeVisible();
  expect((await viewer.goto(`${A}/share/${shareId}`))?.status()).toBe(404);
  await viewerContext.close();
});

test('ten uploads through both servers are spread over both workers and end ready with every page', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const manual = await upload(i % 2 ? B : A, `batch-${i}.pdf`, await textPdf(`BATCH${i}X${Date.now().toString(36)}`, 3));
    ids.push(manual.id);
  }
  await waitReady(A, ids);
  for (const id of ids) expect(await stored(id)).toMatchObject({ pages: 3, images: 3, thumbs: 3 });
  const hosts = ids.map((id) => processedBy(id));
  for (const h of hosts) expect(h).toHaveLength(1);
  expect(new Set(hosts.flat())).toEqual(new Set(['machine-1', 'machine-2']));
});

test('kill -9 of a worker mid-job: the job is reclaimed when its lease runs out and ends ready with every page', async () => {
  const PAGES = 40;
  const manual = await upload(A, 'long-manual.pdf', await textPdf(`LONG${Date.now().toString(36)}`, PAGES));
  // Wait until a worker is inside the job (past parsing's first pages), then kill it without warning.
  let holder: string | null = null;
  await expect
    .poll(
      async () => {
        const row = (await db.query('select status, worker_id, progress_done from manuals where id = $1', [manual.id])).rows[0];
        holder = row.worker_id;
        return row.status !== 'queued' && row.status !== 'ready' && row.worker_id !== null && row.progress_done >= 2;
      },
      { timeout: 120_000, intervals: [100] },
    )
    .toBe(true);
  const victim = workers.find((w) => holder!.startsWith(`${w.host}/`))!;
  const survivor = workers.find((w) => w !== victim)!;
  process.kill(victim.pid, 'SIGKILL');

  await waitReady(B, [manual.id]);
  expect(fs.readFileSync(survivor.log, 'utf8')).toContain(`recovered interrupted job ${manual.id}: requeued`);
  expect(processedBy(manual.id)).toEqual([survivor.host]);
  expect(await stored(manual.id)).toMatchObject({ pages: PAGES, images: PAGES, thumbs: PAGES });
  const row = (await db.query('select page_count, attempts, worker_id, lease_until from manuals where id = $1', [manual.id])).rows[0];
  expect(row).toEqual({ page_count: PAGES, attempts: 0, worker_id: null, lease_until: null });
  // Every page is searchable once: no duplicate chunks from the killed attempt.
  const dupes = await db.query('select id from chunks where manual_id = $1 group by id having count(*) > 1', [manual.id]);
  expect(dupes.rowCount).toBe(0);
});

test('a limit is counted once across both servers: 30 invalid API keys sent to A and B in turn, then the 31st is refused wherever it goes (issue 34)', async () => {
  const guess = (server: string, i: number) =>
    fetch(`${server}/api/v1/ask`, { method: 'POST', headers: { authorization: `Bearer mc_cluster-guess-${i}` }, body: '{}' }).then((r) => r.status);
  // 30 invalid keys a minute per address, counted in Postgres in fixed minutes: start early in a
  // minute so all 31 attempts fall into one window.
  await expect.poll(() => Date.now() % 60_000, { timeout: 30_000, intervals: [200] }).toBeLessThan(30_000);
  for (let i = 0; i < 30; i++) expect(await guess(i % 2 ? A : B, i), `key ${i + 1}`).toBe(401);
  // A made the 30th failure and locked the address; B must refuse it too, without checking
  // the key (a lockout of B's own would have let this one attempt through).
  expect(await guess(B, 30)).toBe(429);
  expect(await guess(A, 31)).toBe(429);
});
