import { describe, expect, it } from 'vitest';
import { parseBenchArgs, parseEvalArgs, UsageError } from './args';
import { selectQuestions } from './run';
import { parseQa } from './qa';

describe('eval arguments', () => {
  it('defaults: k 5, every strategy, offline LLM mode', () => {
    expect(parseEvalArgs(['--qa', 'q.jsonl', '--manuals', 'm'])).toMatchObject({
      qa: ['q.jsonl'],
      manuals: ['m'],
      cv: false,
      train: false,
      k: 5,
      strategies: ['baseline', 'bm25', 'dense', 'hybrid', 'multivector', 'ranker', 'agent'],
      llm: { kind: 'offline' },
      json: false,
    });
  });

  it('--named-device chooses what the agent does with a named device (its pages first by default)', () => {
    const base = ['--qa', 'q.jsonl', '--manuals', 'm'];
    expect(parseEvalArgs(base).namedDevice).toBe('first');
    expect(parseEvalArgs([...base, '--named-device', 'scope']).namedDevice).toBe('scope');
    expect(parseEvalArgs([...base, '--named-device', 'off']).namedDevice).toBe('off');
    expect(() => parseEvalArgs([...base, '--named-device', 'always'])).toThrow(UsageError);
  });

  it('pools several question sets and manual folders; --cv and --train', () => {
    expect(parseEvalArgs(['--qa', 'a', '--qa', 'b', '--manuals', 'm', '--manuals', 'n', '--cv', '--train'])).toMatchObject({ qa: ['a', 'b'], manuals: ['m', 'n'], cv: true, train: true, cvScheme: 'manual' });
    expect(parseEvalArgs(['--qa', 'a', '--manuals', 'm', '--cv', '--cv-scheme', 'set']).cvScheme).toBe('set');
  });

  it('parses every option', () => {
    const a = parseEvalArgs(['--qa', 'q', '--manuals', 'm', '--k', '10', '--strategy', 'hybrid, agent', '--limit', '3', '--manual', 'x.pdf', '--data-dir', '/tmp/d', '--replay', 'c.jsonl', '--json']);
    expect(a).toMatchObject({ k: 10, strategies: ['hybrid', 'agent'], limit: 3, manual: 'x.pdf', dataDir: '/tmp/d', llm: { kind: 'replay', file: 'c.jsonl' }, json: true });
    expect(parseEvalArgs(['--qa', 'q', '--manuals', 'm', '--record', 'r.jsonl']).llm).toEqual({ kind: 'record', file: 'r.jsonl' });
  });

  it('rejects what it cannot run', () => {
    const bad = (argv: string[]) => expect(() => parseEvalArgs(argv)).toThrow(UsageError);
    bad(['--manuals', 'm']);
    bad(['--qa', 'q', '--manuals', 'm', '--strategy', 'magic']);
    bad(['--qa', 'q', '--manuals', 'm', '--k', '0']);
    bad(['--qa', 'q', '--manuals', 'm', '--replay', 'a', '--record', 'b']);
    bad(['--qa', 'q', '--manuals', 'm', '--verbose']);
    bad(['--qa', 'q', '--manuals', 'm', '--cv', '--cv-scheme', 'question']);
    bad(['--qa', 'q', '--manuals', 'm', '--cv-scheme', 'set']);
  });

  it('--manual and --limit select questions', () => {
    const qs = parseQa(
      ['a.pdf', 'b.pdf', 'a.pdf', 'a.pdf']
        .map((m, i) => JSON.stringify({ id: `q${i}`, manual: m, question: '?', answer_keywords: [], pages: [], kind: 'unanswerable' }))
        .join('\n'),
    );
    expect(selectQuestions(qs, { manual: 'A' }).map((q) => q.id)).toEqual(['q0', 'q2', 'q3']);
    expect(selectQuestions(qs, { manual: 'a.pdf', limit: 2 }).map((q) => q.id)).toEqual(['q0', 'q2']);
    expect(selectQuestions(qs, {}).length).toBe(4);
  });
});

describe('bench arguments', () => {
  it('sizes, queries and parts', () => {
    expect(parseBenchArgs([])).toMatchObject({ sizes: [1000, 10000, 100000], queries: 30, skip: [], json: false });
    expect(parseBenchArgs(['--sizes', '10k,1000', '--skip', 'server', '--json', '--queries', '5'])).toMatchObject({ sizes: [1000, 10000], skip: ['server'], json: true, queries: 5, inProcess: false });
    expect(parseBenchArgs(['--in-process']).inProcess).toBe(true);
    expect(() => parseBenchArgs(['--sizes', 'lots'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--skip', 'gpu'])).toThrow(UsageError);
  });
});
