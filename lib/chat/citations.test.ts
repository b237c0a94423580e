import { describe, expect, it } from 'vitest';
import { citationNumbers, renumberAnswer, sourcesInOrder } from './citations';

describe('citation numbers per answer', () => {
  it('numbers sources 1..n in order of first use, then uncited sources', () => {
    const answer = 'The supply is 24 V DC [7]. The fuse is 2 A [3, 7]. See also [12].';
    const numbers = citationNumbers(answer, [{ ref: 3 }, { ref: 7 }, { ref: 9 }, { ref: 12 }]);
    expect([...numbers]).toEqual([
      [7, 1],
      [3, 2],
      [12, 3],
      [9, 4],
    ]);
    expect(renumberAnswer(answer, numbers)).toBe('The supply is 24 V DC [1]. The fuse is 2 A [2, 1]. See also [3].');
    expect(sourcesInOrder([{ ref: 3 }, { ref: 7 }, { ref: 9 }, { ref: 12 }], numbers).map((s) => s.ref)).toEqual([7, 3, 12, 9]);
  });

  it('starts at 1 in every answer, whatever the agent numbered', () => {
    expect(citationNumbers('Torque is 12 Nm [41].', [{ ref: 41 }]).get(41)).toBe(1);
    expect(citationNumbers('No sources.', []).size).toBe(0);
  });

  it('keeps numbering stable while an answer streams (first use only grows)', () => {
    const full = 'A [5]. B [2]. C [5].';
    const partial = citationNumbers(full.slice(0, 8), []);
    const done = citationNumbers(full, []);
    for (const [ref, n] of partial) expect(done.get(ref)).toBe(n);
  });
});
