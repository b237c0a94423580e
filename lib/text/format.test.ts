import { describe, expect, it } from 'vitest';
import { joinWithAnd, numbersIn, truncate } from './format';

describe('format helpers', () => {
  it('reads numbers the way an answer check compares them', () => {
    expect(numbersIn('Set 0x1F, wait 2.50 s, then 400')).toEqual(['0x1f', '2.5', '400']);
  });

  it('lists items as a sentence does', () => {
    expect(joinWithAnd([])).toBe('');
    expect(joinWithAnd(['HX-200'])).toBe('HX-200');
    expect(joinWithAnd(['HX-200', 'HX-300'])).toBe('HX-200 and HX-300');
    expect(joinWithAnd(['HX-100', 'HX-200', 'HX-300'])).toBe('HX-100, HX-200 and HX-300');
  });

  it('truncates at a word boundary with an ellipsis', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('the quick brown fox jumps', 17)).toBe('the quick brown…');
  });
});
