import next from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...next,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '.scratch/**'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Request bodies are read through one capped reader, after the caller is known:
    // readBodyCapped / readJsonCapped in lib/security/request-guard.ts. A direct read parses
    // whatever size arrives, before anything is checked.
    files: ['app/**/*.{ts,tsx}', 'actions/**/*.ts', 'lib/**/*.{ts,tsx}', 'proxy.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.name=/^(request|req)$/][callee.property.name=/^(json|text|formData|arrayBuffer|blob|bytes)$/]",
          message:
            'Read request bodies with readJsonCapped/readBodyCapped (lib/security/request-guard.ts), after checking who is asking: a direct read has no size cap.',
        },
      ],
    },
  },
];

export default config;
