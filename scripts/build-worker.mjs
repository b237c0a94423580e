/**
 * Bundles the worker processes — the ingest worker (lib/ingest/worker.ts) and the bounded PDF
 * worker (lib/pdf-worker/worker.ts) — into plain JavaScript so production runs them with `node`
 * alone, without a TypeScript loader. Packages stay external (resolved from node_modules at run
 * time); the tsconfig's `@/` paths are resolved by esbuild. Runs after `next build` (which
 * empties .next/), from `npm run build` and from scripts/start.ts.
 */
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, '.next');

await build({
  entryPoints: {
    'ingest-worker': path.join(root, 'lib', 'ingest', 'worker.ts'),
    'pdf-worker': path.join(root, 'lib', 'pdf-worker', 'worker.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log('• Workers bundled: .next/ingest-worker.mjs, .next/pdf-worker.mjs');
