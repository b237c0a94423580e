/**
 * The first-time flow, on a phone: open the app with an empty library, find how to add a
 * manual, upload two, ask, open a citation and read the highlighted value without zooming the
 * browser. It needs an empty library, so it runs its own server (next port up, fresh DATA_DIR)
 * from the same build the other specs use.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLargeManual } from '../lib/sample/large';
import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat-page';
import { ManualsPage } from './pages/manuals-page';
import { samplePdfPath } from './sample-pdf';

const PORT = Number(process.env.E2E_PORT ?? 3107) + 1;
const BASE = `http://127.0.0.1:${PORT}`;

let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-e2e-first-'));
  server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, MC_NO_SAMPLE: '1', MC_E2E: '1', NEXT_TELEMETRY_DISABLED: '1' },
    detached: true, // its own process group: stopped as a whole below
    stdio: 'ignore',
  });
  const started = server;
  await expect
    .poll(
      () =>
        started.exitCode !== null
          ? 'exited'
          : fetch(`${BASE}/api/health`).then(
              (r) => (r.ok ? 'up' : 'down'),
              () => 'down',
            ),
      {
        timeout: 280_000,
        message: `the first-run server on port ${PORT} did not start`,
      },
    )
    .toMatch(/^(up|exited)$/);
  expect(started.exitCode, `the first-run server on port ${PORT} exited`).toBeNull();
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    try {
      process.kill(-server.pid, 'SIGTERM'); // the whole group: npx, tsx, the supervisor, next-server
      await exited;
    } catch {}
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test.describe('first time, on a phone', () => {
  test.use({ baseURL: BASE, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('empty library → find how to add manuals → upload two → ask → read the cited value on the page', async ({ page }) => {
    test.setTimeout(360_000);
    const chat = new ChatPage(page);
    const manuals = new ManualsPage(page);

    // An empty library: the chat says how to add manuals, and that link leads to the upload.
    await chat.goto('/');
    await expect(page.getByTestId('chat-empty-state')).toBeVisible();
    await page.getByTestId('add-manuals-link').first().click();
    await expect(page).toHaveURL(/\/manuals$/);
    await expect(page.getByTestId('manuals-empty-state')).toBeVisible();
    await expect(page.getByTestId('upload-zone')).toBeVisible();

    // Two manuals at once.
    const second = path.join(os.tmpdir(), 'mc-e2e-sample', `service-manual-${Date.now().toString(36)}.pdf`);
    fs.mkdirSync(path.dirname(second), { recursive: true });
    fs.writeFileSync(second, await generateLargeManual({ pages: 8, scannedEvery: 1000, photoEvery: 1000, seed: 17 }));
    await manuals.upload(await samplePdfPath(), second);
    await expect(manuals.rows()).toHaveCount(2);
    for (const row of await manuals.rows().all()) await manuals.expectReady(row);

    // Ask.
    await page.getByTestId('nav-chat').click();
    await expect(page.getByTestId('chat-examples')).toBeVisible();
    await chat.ask('What supply voltage does the HX-200 controller need?');
    await chat.expectLastTurn('done');
    await expect(chat.answer()).toContainText('24 V DC');

    // Open the citation: the page at its full width (no sideways panning), scrolled to the highlighted passage,
    // whose text (with the value) is quoted above the page — all without zooming the browser.
    await chat.citations().first().click();
    const preview = chat.preview();
    await expect(preview.getByTestId('page-frame')).toHaveAttribute('data-loaded', 'true');
    await expect(preview.locator('blockquote')).toContainText('24 V DC');
    await expect(preview.getByTestId('zoom-level')).toHaveText('Fit width');
    const highlight = chat.highlights().first();
    await expect(highlight).toBeVisible();
    await expect
      .poll(async () => {
        const box = await highlight.boundingBox();
        return !!box && box.y >= 0 && box.y + box.height <= 844 && box.x < 390 && box.x + box.width > 0;
      })
      .toBe(true);
    const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, zoom: window.visualViewport?.scale ?? 1 }));
    expect(widths.doc).toBeLessThanOrEqual(390);
    expect(widths.zoom).toBe(1);
  });
});
