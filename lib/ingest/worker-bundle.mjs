/**
 * How the worker code becomes plain JavaScript that `node` runs alone: for production by
 * scripts/build-worker.mjs, and for the PDF thread on the spot when the sources run unbundled
 * (pdf-thread-dev.mjs). Packages stay external (resolved from node_modules at run time) but for
 * JSON-only ones; the tsconfig's `@/` paths are resolved by esbuild.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** esbuild options for the repo at `root`; the caller adds the entry points and the output. */
export function workerBundleOptions(root) {
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
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages],
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  };
}
