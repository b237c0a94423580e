/**
 * The layering, written once (README "Architecture" draws it). `npm run lint:deps` checks it as
 * part of `npm run lint`, so `npm test` fails on an import that flows the wrong way, closes a
 * cycle between files (and, with .dependency-cruiser.folders.cjs, between folders). Type-only imports count: a cycle
 * of types is still a cycle a reader has to untangle.
 *
 * Every folder of lib/ has one rule: the folders it may import (ALLOWED). A folder missing from
 * ALLOWED fails the `every-lib-folder-has-a-layer` rule, so a new room must be placed in the
 * layering before it can be used.
 *
 * Tests and test helpers (`testing/` folders) wire layers together the way the app does, so the
 * layer rules skip them; the file-cycle rule does not.
 */
const TESTS = '(\\.test\\.tsx?$|/testing/)';

/** lib/<folder> → the lib/ folders it may import, bottom of the stack first. */
const ALLOWED = {
  config: [],
  text: [],
  device: ['text'],
  runtime: ['config'],
  sample: [],
  providers: ['config', 'runtime', 'text'],
  store: ['config', 'runtime', 'providers'],
  ranking: ['device', 'providers', 'store', 'text'],
  auth: ['config', 'runtime', 'store', 'text'],
  security: ['auth', 'config', 'runtime', 'store'],
  answer: ['config', 'device', 'providers', 'ranking', 'text'],
  ingest: ['answer', 'config', 'device', 'providers', 'runtime', 'store', 'text'],
  'pdf-worker': ['config', 'ingest', 'runtime'],
  manuals: ['auth', 'config', 'device', 'ingest', 'pdf-worker', 'providers', 'runtime', 'store', 'text'],
  agent: ['answer', 'config', 'device', 'providers', 'ranking', 'runtime', 'text'],
  services: ['agent', 'config', 'manuals', 'providers', 'ranking', 'store'],
  chat: ['agent', 'answer', 'config', 'device', 'ingest', 'manuals', 'pdf-worker', 'providers', 'runtime', 'services', 'store', 'text'],
  api: ['agent', 'answer', 'auth', 'chat', 'config', 'device', 'manuals', 'providers', 'runtime', 'security', 'services', 'store', 'text'],
  mcp: ['api', 'config', 'runtime', 'security'],
  server: ['auth', 'config', 'ingest', 'manuals', 'pdf-worker', 'providers', 'runtime', 'sample', 'security', 'store'],
  eval: ['agent', 'answer', 'config', 'device', 'ingest', 'manuals', 'providers', 'ranking', 'runtime', 'sample', 'services', 'store', 'text'],
};
/** Which lib/ folders may import tools/ (the registry of tools is handed to the loop by its callers). */
const MAY_IMPORT_TOOLS = ['chat', 'api', 'eval', 'services'];
/** What tools may use of lib/agent: the contract and the answer toolkit, never the loop. */
const AGENT_TOOLKIT = '^lib/agent/(contract|environment|events)\\.ts$';

/** A layer rule: modules under `from` (tests aside) must not import modules under `to` (except `toExcept`). */
function layer(name, comment, from, to, toExcept) {
  return { name, severity: 'error', comment, from: { path: from, pathNot: TESTS }, to: { path: to, ...(toExcept ? { pathNot: toExcept } : {}) } };
}

function folderRule(folder, allowed) {
  const own = [folder, ...allowed].map((f) => f.replace('-', '\\-')).join('|');
  return layer(
    `lib-${folder}-layer`,
    `lib/${folder} may import only lib/{${allowed.join(', ') || 'nothing'}}${MAY_IMPORT_TOOLS.includes(folder) ? ' and tools/' : ''}.`,
    `^lib/${folder}/`,
    `^(lib/(?!(${own})/)|app/|actions/|components/${MAY_IMPORT_TOOLS.includes(folder) ? '' : '|tools/'})`,
  );
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
    {
      name: 'every-lib-folder-has-a-layer',
      severity: 'error',
      comment: 'lib/ holds folders only, each with a rule in ALLOWED (.dependency-cruiser.cjs).',
      from: { path: `^lib/(?!(${Object.keys(ALLOWED).join('|')})/)`, pathNot: TESTS },
      to: {},
    },
    {
      name: 'no-loose-lib-files',
      severity: 'error',
      comment: 'lib/ holds folders only: a file directly in lib/ belongs in the folder of its concept.',
      from: {},
      to: { path: '^lib/[^/]+$' },
    },
    ...Object.entries(ALLOWED).map(([folder, allowed]) => folderRule(folder, allowed)),
    layer('tools-only-to-agent-toolkit', 'Tools see the contract of lib/agent, not the decision loop.', '^tools/', '^lib/agent/', AGENT_TOOLKIT),
    layer(
      'tools-below-callers',
      'Tools are handed to the loop by its callers; they never import the callers or the UI.',
      '^tools/',
      '^(lib/(?!(agent|answer|config|device|providers|ranking|runtime|text)/)|app/|actions/|components/)',
    ),
    layer('actions-are-thin', 'Server actions parse input and call lib/; the UI imports them, never the other way.', '^actions/', '^(app|components)/'),
    layer('components-below-app', 'Pages and routes (app/) compose components; components never import app/.', '^components/', '^app/'),
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
