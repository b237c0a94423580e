/**
 * Bundles the worker processes — the ingest worker (lib/ingest/worker.ts) with its pdf.js thread
 * (lib/ingest/pdf-thread-entry.ts) and the bounded PDF worker (lib/pdf-worker/worker.ts) — into plain JavaScript so production runs them with `node`
 * alone, without a TypeScript loader (how: lib/ingest/worker-bundle.mjs). Runs after `next build`
 * (which empties .next/), from `npm run build` and from scripts/start.ts.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { workerBundleOptions } from '../lib/ingest/worker-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, '.next');

await build({
  ...workerBundleOptions(root),
  entryPoints: {
    'ingest-worker': path.join(root, 'lib', 'ingest', 'worker.ts'),
    'pdf-worker': path.join(root, 'lib', 'pdf-worker', 'worker.ts'),
    // The ingest worker's pdf.js thread (lib/ingest/pdf-thread.ts looks for it beside the worker).
    'pdf-thread': path.join(root, 'lib', 'ingest', 'pdf-thread-entry.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
});
console.log('• Workers bundled: .next/ingest-worker.mjs, .next/pdf-thread.mjs, .next/pdf-worker.mjs');
