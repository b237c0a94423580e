import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests run on the server side anyway.
      'server-only': path.resolve(import.meta.dirname, 'test/server-only-stub.ts'),
    },
  },
  test: {
    environment: 'node',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'e2e/**', '.next/**', 'data/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Native modules (LanceDB, onnxruntime, canvas) are safest in forked processes.
    pool: 'forks',
    setupFiles: ['test/setup.ts'],
    // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses:
    // let Vite resolve it.
    server: { deps: { inline: ['next-auth', '@auth/core'] } },
  },
});
