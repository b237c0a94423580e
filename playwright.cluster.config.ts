import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './e2e/chromium-path';

/**
 * `npm run test:cluster`: several machines on loopback — two app servers and two ingest workers
 * on one Postgres (TEST_DATABASE_URL's server) and one FILES_DIR, started by
 * test/cluster/global-setup.ts. Skipped with the reason when there is no Postgres (not in CI).
 */
export default defineConfig({
  testDir: './test/cluster',
  timeout: 300_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  globalSetup: './test/cluster/global-setup.ts',
  use: { trace: 'retain-on-failure' },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: findChromium(),
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
});
