/** The cross-validation folds: by manual, or by question set with sets that share a manual together. */
import { describe, expect, it } from 'vitest';
import { foldKeys } from './cv';

const questions = [
  { id: 'd1', manual: 'a.pdf', set: 'dev' },
  { id: 'd2', manual: 'b.pdf', set: 'dev' },
  { id: 'h1', manual: 'b.pdf', set: 'heldout' },
  { id: 'e1', manual: 'c.pdf', set: 'dev2' },
  { id: 'e2', manual: 'd.pdf', set: 'dev2' },
];

describe('cross-validation folds', () => {
  it('one fold per manual', () => {
    expect(Object.fromEntries(foldKeys(questions, 'manual'))).toEqual({ d1: 'a.pdf', d2: 'b.pdf', h1: 'b.pdf', e1: 'c.pdf', e2: 'd.pdf' });
  });

  it('one fold per question set, sets that share a manual held out together', () => {
    expect(Object.fromEntries(foldKeys(questions, 'set'))).toEqual({ d1: 'dev+heldout', d2: 'dev+heldout', h1: 'dev+heldout', e1: 'dev2', e2: 'dev2' });
    // Sets with no manual in common stay apart.
    expect(new Set(foldKeys([questions[0], questions[3]], 'set').values())).toEqual(new Set(['dev', 'dev2']));
  });
});
