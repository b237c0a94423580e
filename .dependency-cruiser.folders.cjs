/**
 * No two folders import each other, directly or round a loop (issue 29): a folder pair that does is
 * one concept in two rooms. A second pass of `npm run lint:deps`, because dependency-cruiser judges
 * folder cycles over every module of a folder, and tests (which wire layers together the way the
 * app does) must be left out of the graph, not just out of the rule.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config reading its sibling
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Two folders that import each other (directly or round a loop) are one concept in two rooms.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: { ...base.options, exclude: { path: `${base.options.exclude.path}|\\.test\\.tsx?$|/testing/` } },
};
