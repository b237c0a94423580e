/**
 * The layering, written once (README "Architecture" draws it). `npm run lint:deps` checks it as
 * part of `npm run lint`, so `npm test` fails on an import that flows the wrong way or closes a
 * cycle. Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
 *
 *   app/, components/  →  lib/chat/  →  lib/agent/ (loop)  ┐
 *                                    →  tools/              ├→  lib/agent/ contract + toolkit
 *                                                            ┘     →  lib/ingest, lib/store, lib/providers
 *
 * Tests and test helpers wire layers together the way the app does, so the layer rules (not the
 * cycle rule) skip them.
 */
const TESTS = '(\\.test\\.tsx?$|/testing(-store)?\\.ts$|/testing/)';
/** What tools may use of lib/agent: the contract and the text/answer toolkit, never the loop. */
const AGENT_TOOLKIT = '^lib/agent/(contract|hits|environment|text|extractive|quantities)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports flow one way; a cycle means two modules are really one, or a type belongs in a shared module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-to-ui',
      severity: 'error',
      comment: 'lib/ and tools/ are the server side: they never import pages or components.',
      from: { path: '^(lib|tools)/', pathNot: TESTS },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'agent-loop-not-to-tools',
      severity: 'error',
      comment: 'The loop runs whatever tools its caller hands to runTurn (tools/index.ts in the app); it knows only the contract.',
      from: { path: '^lib/agent/', pathNot: TESTS },
      to: { path: '^tools/' },
    },
    {
      name: 'tools-only-to-agent-toolkit',
      severity: 'error',
      comment: 'Tools see the contract and the text/answer toolkit of lib/agent, not the decision loop.',
      from: { path: '^tools/', pathNot: TESTS },
      to: { path: '^lib/agent/', pathNot: AGENT_TOOLKIT },
    },
    {
      name: 'agent-not-to-chat-or-eval',
      severity: 'error',
      comment: 'Chat sessions and the eval are callers of the agent, never the other way round.',
      from: { path: '^(lib/agent|tools)/', pathNot: TESTS },
      to: { path: '^lib/(chat|eval)/' },
    },
    {
      name: 'foundation-stays-below',
      severity: 'error',
      comment: 'Providers (models, vector stores) and the store are the bottom layer: they import nothing above them.',
      from: { path: '^lib/(providers|store)/', pathNot: TESTS },
      to: { path: '^(lib/(agent|chat|eval|ingest|sample)|tools|app|components)/' },
    },
    {
      name: 'ingest-below-agent',
      severity: 'error',
      comment: 'Ingestion writes what the agent reads; it never calls the agent, tools or chat.',
      from: { path: '^lib/ingest/', pathNot: TESTS },
      to: { path: '^(lib/(agent|chat|eval)|tools)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(\\.next|node_modules|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
