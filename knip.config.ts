/**
 * Dead code stays out (`npm run lint` runs both passes):
 * - `knip`: no file, dependency or export that nothing imports;
 * - `knip --production`: no export that only tests keep alive. Exports a module uses itself may
 *   be exported for their tests; hooks that exist for tests (worker teardown, resets) say so with
 *   `@internal`.
 */
import type { KnipConfig } from 'knip';

const production = process.argv.includes('--production');

const config: KnipConfig = {
  entry: [
    'scripts/*.{ts,mjs}!',
    'lib/ingest/worker.ts!',
    'lib/pdf-worker/worker.ts!',
    'lib/eval/bench/large-child.ts!',
    'lib/providers/vectorstore/bench.ts',
    'drizzle.pg.config.ts',
    'test/server-only-stub.ts',
  ],
  project: ['{app,actions,components,lib,tools,scripts}/**/*.{ts,tsx,mjs}!', '*.ts!', 'e2e/**/*.ts', 'test/**/*.ts', '!**/*.test.{ts,tsx}!', '!**/testing/**!'],
  // Loaded by path (next/font/local, tesseract's model folder) or by CSS (@import "tailwindcss").
  ignoreDependencies: ['@fontsource-variable/inter', '@fontsource-variable/jetbrains-mono', '@tesseract.js-data/eng', 'tailwindcss'],
  // System tools tests run (a named pipe holds a PDF worker on a job without timing).
  ignoreBinaries: ['mkfifo'],
  ignoreExportsUsedInFile: production,
};

export default config;
