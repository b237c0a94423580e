import { describe, expect, it } from 'vitest';
import { LibraryIndex } from '../ranking/library-index';
import { DEVICE_CORPUS } from '../ranking/testing/devices';
import type { QaItem } from './qa';
import { unnamedVariants } from './unnamed';

const index = new LibraryIndex(DEVICE_CORPUS);
const q = (id: string, manual: string, question: string, extra: Partial<QaItem> = {}): QaItem => ({ id, manual, question, answer_keywords: [], pages: [2], kind: 'fact', ...extra });
const idOf = (item: QaItem) => DEVICE_CORPUS.manuals.find((m) => m.fileName === item.manual)?.id;

describe('unnamedVariants: each question naming its own device asked again without its name', () => {
  const out = unnamedVariants(
    [
      q('a', 'acme-hx300-manual.pdf', 'What fuse does the Acme HX-300 take?'),
      q('b', 'kappa-vna10-guide.pdf', 'What is the supply voltage?'),
      q('c', 'acme-hx200-manual.pdf', 'What fuse does the Kappa VNA-10 take?'),
      q('d', 'brill-dp832.pdf', 'And the Brill DP832 fuse?', { session: 's', turn: 2 }),
    ],
    index,
    idOf,
    (item) => (item.id === 'a' ? 'The fuse is 4 A.' : undefined),
  );

  it('adds the rewritten question after its original, naming no device, with the reference answer', () => {
    expect(out.questions.map((x) => x.id)).toEqual(['a', 'a~unnamed', 'b', 'c', 'd']);
    expect(out.questions[1]).toMatchObject({ manual: 'acme-hx300-manual.pdf', question: 'What fuse does the take?', reference_answer: 'The fuse is 4 A.' });
    expect(out.stillNamed).toEqual([]);
  });

  it('says which variant each single-turn question is: named, unnamed, or neither when it names another device', () => {
    expect(Object.fromEntries(out.variantOf)).toEqual({ a: 'named', 'a~unnamed': 'unnamed', b: 'unnamed' });
    expect(out.unnamedOf.get('a~unnamed')).toBe('a');
  });
});
