import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './e2e/chromium-path';
import { SENTINEL_ENV } from './e2e/secrets';
import { INGEST_GATE } from './e2e/ingest-gate';

const PORT = Number(process.env.E2E_PORT ?? 3107);
// A scratch DATA_DIR per run: the browser tests never see a developer's own library.
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `mc-e2e-${process.pid}`);
const executablePath = findChromium();

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          // Running as root in a closed network (DESIGN §7).
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    // The same entry point a user runs: builds when needed, then serves the real app.
    command: 'npx tsx scripts/start.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // No seeded sample: the specs upload it through the browser like a user would. Fake values for
    // every secret (unused: the providers stay offline) let security.spec.ts prove none leaks.
    env: { ...SENTINEL_ENV, PORT: String(PORT), DATA_DIR, NEXT_TELEMETRY_DISABLED: '1', MC_E2E: '1', MC_NO_SAMPLE: '1', MC_E2E_INGEST_GATE: INGEST_GATE },
  },
});
