/**
 * Makes sure Playwright has a Chromium to drive, so `npm test` is all a user types.
 * Order: CHROMIUM_PATH → Debian/Ubuntu `chromium` (installed with apt-get when we are root) →
 * Playwright's own download (only where the network allows it; never in CI here).
 */
import { execSync, spawnSync } from 'node:child_process';
import { findChromium } from '../e2e/chromium-path';

function run(cmd: string) {
  console.log(`$ ${cmd}`);
  const r = spawnSync(cmd, { shell: true, stdio: 'inherit' });
  return r.status === 0;
}

function main() {
  if (findChromium()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    hasApt = true;
  } catch {}
  if (isRoot && hasApt) {
    console.log('• No Chromium found: installing Debian’s chromium package…');
    if (run('apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium') && findChromium()) return;
  }
  if (process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD) {
    console.error('✖ No Chromium found and browser downloads are disabled. Install chromium or set CHROMIUM_PATH.');
    process.exit(1);
  }
  console.log('• Falling back to Playwright’s own Chromium download…');
  if (!run('npx playwright install chromium')) {
    console.error('✖ Could not get a Chromium for the browser tests. Install chromium or set CHROMIUM_PATH.');
    process.exit(1);
  }
}

main();
