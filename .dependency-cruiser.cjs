/**
 * The layering, written once (README "Architecture" draws it). `npm run lint:deps` checks it as
 * part of `npm run lint`, so `npm test` fails on an import that flows the wrong way or closes a
 * cycle. Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
 *
 *   app/, components/  →  lib/chat/  →  lib/agent/ (loop)  ┐
 *                                    →  tools/              ├→  lib/answer/ (the answer writer and its policy)
 *                                                            │→  lib/agent/ contract + toolkit
 *                                                            ┘     →  lib/ingest, lib/store, lib/providers
 *
 * Tests and test helpers wire layers together the way the app does, so the layer rules (not the
 * cycle rule) skip them.
 */
const TESTS = '(\\.test\\.tsx?$|/testing(-store)?\\.ts$|/testing/)';
/** What tools may use of lib/agent: the contract and the environment, never the loop (text analysis is lib/text, answers lib/answer). */
const AGENT_TOOLKIT = '^lib/agent/(contract|hits|environment)\\.ts$';
/** What the answer writer may use of lib/agent: the shapes of what it quotes. */
const AGENT_SHAPES = '^lib/agent/(contract|hits)\\.ts$';

/** A layer rule: modules under `from` (tests aside) must not import modules under `to` (except `toExcept`). */
function layer(name, comment, from, to, toExcept) {
  return { name, severity: 'error', comment, from: { path: from, pathNot: TESTS }, to: { path: to, ...(toExcept ? { pathNot: toExcept } : {}) } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports flow one way; a cycle means two modules are really one, or a type belongs in a shared module.',
      from: {},
      to: { circular: true },
    },
    layer('lib-not-to-ui', 'lib/ and tools/ are the server side: they never import pages or components.', '^(lib|tools)/', '^(app|components)/'),
    layer(
      'agent-loop-not-to-tools',
      'The loop runs whatever tools its caller hands to runTurn (tools/index.ts in the app); it knows only the contract.',
      '^lib/agent/',
      '^tools/',
    ),
    layer('tools-only-to-agent-toolkit', 'Tools see the contract and the environment of lib/agent, not the decision loop.', '^tools/', '^lib/agent/', AGENT_TOOLKIT),
    layer(
      'answer-below-agent-and-tools',
      'The answer writer (lib/answer) is called by the agent and its tools; it sees only the shapes of hits, never the loop or a tool.',
      '^lib/answer/',
      '^(tools|lib/agent)/',
      AGENT_SHAPES,
    ),
    layer('agent-not-to-chat-or-eval', 'Chat sessions and the eval are callers of the agent, never the other way round.', '^(lib/(agent|answer)|tools)/', '^lib/(chat|eval)/'),
    layer(
      'foundation-stays-below',
      'Providers (models, vector stores) and the store are the bottom layer: they import nothing above them.',
      '^lib/(providers|store)/',
      '^(lib/(agent|answer|chat|eval|ingest|sample)|tools|app|components)/',
    ),
    layer('text-toolkit-is-a-leaf', 'lib/text (tokenizer, stemmer, stop words, units, BM25) serves every layer and imports none of them.', '^lib/text/', '^(app|components|tools|lib/(?!text/))'),
    layer('ingest-below-agent', 'Ingestion writes what the agent reads; it never calls the agent, tools or chat.', '^lib/ingest/', '^(lib/(agent|chat|eval)|tools)/'),
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
