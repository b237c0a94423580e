import { describe, expect, it } from 'vitest';
import { memoTokenizer } from './library-cache';

describe('the library index rebuild reuses the terms of unchanged texts', () => {
  it('tokenizes only texts the last kept build did not have, and forgets texts a build dropped', () => {
    const seen: string[] = [];
    const base = (text: string) => {
      seen.push(text);
      return text.split(' ');
    };
    const first = memoTokenizer(base);
    first.tokenize('page one');
    first.tokenize('page two');
    first.keep();
    const second = memoTokenizer(base);
    expect(second.tokenize('page one')).toEqual(['page', 'one']);
    second.tokenize('page three');
    second.keep();
    const third = memoTokenizer(base);
    third.tokenize('page two');
    expect(seen).toEqual(['page one', 'page two', 'page three', 'page two']);
  });
});
