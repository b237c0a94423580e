/**
 * Bundles the worker processes — the ingest worker (lib/ingest/worker.ts) with its pdf.js thread
 * (lib/ingest/pdf-thread-entry.ts) and the bounded PDF worker (lib/pdf-worker/worker.ts) — into plain JavaScript so production runs them with `node`
 * alone, without a TypeScript loader. Packages stay external (resolved from node_modules at run
 * time) but for JSON-only ones; the tsconfig's `@/` paths are resolved by esbuild. Runs after `next build` (which
 * empties .next/), from `npm run build` and from scripts/start.ts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, '.next');
const require = createRequire(path.join(root, 'package.json'));

/**
 * Packages stay external, except one whose entry point is a JSON file (stopwords-iso): Node's ESM
 * loader refuses a bare JSON import without an import attribute, so it is bundled instead.
 */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (/^(\.|\/|@\/)/.test(args.path)) return undefined; // the repo's own files and `@/` paths
      let entry = '';
      try {
        entry = require.resolve(args.path);
      } catch {
        // a builtin or an unresolvable name: leave it to node
      }
      return entry.endsWith('.json') ? undefined : { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: {
    'ingest-worker': path.join(root, 'lib', 'ingest', 'worker.ts'),
    'pdf-worker': path.join(root, 'lib', 'pdf-worker', 'worker.ts'),
    // The ingest worker's pdf.js thread (lib/ingest/pdf-thread.ts looks for it beside the worker).
    'pdf-thread': path.join(root, 'lib', 'ingest', 'pdf-thread-entry.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log('• Workers bundled: .next/ingest-worker.mjs, .next/pdf-thread.mjs, .next/pdf-worker.mjs');
