import { describe, expect, it } from 'vitest';
import type { RefHit } from './hits';
import { clarifySentence, readDevices, shouldClarify } from './clarify';

const hit = (ref: number, manualId: string, manualTitle: string, page: number): RefHit =>
  ({
    ref,
    kind: 'chunk',
    manualId,
    manualTitle,
    page,
    chunkId: `${manualId}-${page}-${ref}`,
    heading: 'Specifications',
    text: `passage ${ref} of ${manualTitle}`,
    ocr: false,
    bboxes: [],
    score: 1,
  }) as RefHit;
const name = (id: string) => ({ a: 'HX-200 controller', b: 'QX-40 analyzer', c: 'HX-200 controller' })[id] ?? id;

describe('readDevices: how the closest pages split over devices', () => {
  it('one device (copies of one manual included) never asks', () => {
    const r = readDevices([hit(1, 'a', 'Acme HX-200', 3), hit(2, 'c', 'Acme HX-200', 4), hit(3, 'a', 'Acme HX-200', 5)], name);
    expect(r.topShare).toBe(1);
    expect(r.choices).toHaveLength(1);
    expect(shouldClarify(r, { maxTopShare: 0.99 })).toBe(false);
  });
  it('two devices with no clear margin ask, the best-ranked device first with its best page', () => {
    const r = readDevices([hit(1, 'b', 'Zentro QX-40', 7), hit(2, 'a', 'Acme HX-200', 3), hit(3, 'a', 'Acme HX-200', 2), hit(4, 'b', 'Zentro QX-40', 8)], name);
    expect(r.choices.map((c) => [c.manualId, c.page])).toEqual([
      ['b', 7],
      ['a', 3],
    ]);
    expect(r.topShare).toBeCloseTo((1 + 1 / 4) / (1 + 1 / 2 + 1 / 3 + 1 / 4));
    expect(shouldClarify(r, { maxTopShare: 0.65 })).toBe(true);
    expect(shouldClarify(r, { maxTopShare: 0.55 })).toBe(false);
    expect(r.pages.map((p) => p.manualId)).toEqual(['b', 'b', 'a', 'a']);
    expect(clarifySentence(r)).toBe(
      'Which device? The closest pages are from 2 manuals: QX-40 analyzer or HX-200 controller. Pick one and I will answer from its manual.',
    );
  });
  it('a kind two devices of the library are narrows the candidates to them, wherever their pages rank', () => {
    const others = Array.from({ length: 12 }, (_, i) => hit(i + 1, 'b', 'Zentro QX-40', i + 1));
    const r = readDevices([...others, hit(13, 'a', 'Acme HX-200', 3), hit(14, 'd', 'Acme HX-300', 3)], name, ['a', 'd']);
    expect(r.choices.map((c) => c.manualId)).toEqual(['a', 'd']);
    // Another sort of device leads: the kind's best device has a small share of the closest pages.
    expect(r.topShare).toBeLessThan(0.1);
    expect(shouldClarify(r, { maxTopShare: 0.5 })).toBe(true);
  });
  it('a kind only one device is leaves the candidates as they are (the search scopes to it when it can tell)', () => {
    const r = readDevices([hit(1, 'b', 'Zentro QX-40', 7), hit(2, 'a', 'Acme HX-200', 3)], name, ['a']);
    expect(r.choices.map((c) => c.manualId)).toEqual(['b', 'a']);
  });
});
