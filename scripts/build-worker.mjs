/**
 * Bundles the ingest worker (lib/ingest/worker.ts) into plain JavaScript so production runs it
 * with `node` alone, without a TypeScript loader. Packages stay external (resolved from
 * node_modules at run time); the tsconfig's `@/` paths are resolved by esbuild. Runs after
 * `next build` (which empties .next/), from `npm run build` and from scripts/start.ts.
 */
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const WORKER_BUNDLE = path.join(root, '.next', 'ingest-worker.mjs');

await build({
  entryPoints: [path.join(root, 'lib', 'ingest', 'worker.ts')],
  outfile: WORKER_BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`• Ingest worker bundled: ${path.relative(root, WORKER_BUNDLE)}`);
