import { describe, expect, it } from 'vitest';
import { BaselineIndex, tokenize } from './baseline';

describe('the baseline page BM25', () => {
  it('tokenizes into lower-case letter/digit runs', () => {
    expect(tokenize('Sys Err 0C/10/2C — STM32F072, 3.3V')).toEqual(['sys', 'err', '0c', '10', '2c', 'stm32f072', '3', '3v']);
  });

  it('matches a hand computation (k1 = 1.2, b = 0.75)', () => {
    const docs = [
      { key: 'p1', text: 'fuse fuse rating' },
      { key: 'p2', text: 'battery rating' },
      { key: 'p3', text: 'battery charge current limit' },
    ];
    const index = new BaselineIndex(docs);
    const avgdl = (3 + 2 + 4) / 3;
    const idf = (df: number) => Math.log(1 + (3 - df + 0.5) / (df + 0.5));
    const term = (tf: number, dl: number, df: number) => (idf(df) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / avgdl));
    const hits = index.search('fuse rating');
    expect(hits.map((h) => h.key)).toEqual(['p1', 'p2']);
    expect(hits[0].score).toBeCloseTo(term(2, 3, 1) + term(1, 3, 2), 10);
    expect(hits[1].score).toBeCloseTo(term(1, 2, 2), 10);
  });

  it('counts a repeated query term once, ranks rarer terms higher, ties in document order', () => {
    const index = new BaselineIndex([
      { key: 'a', text: 'pump motor' },
      { key: 'b', text: 'pump seal' },
      { key: 'c', text: 'pump motor' },
    ]);
    expect(index.search('pump pump')[0].score).toBeCloseTo(index.search('pump')[0].score, 12);
    expect(index.search('seal pump').map((h) => h.key)).toEqual(['b', 'a', 'c']);
    expect(index.search('motor', 1).map((h) => h.key)).toEqual(['a']);
    expect(index.search('nothing here')).toEqual([]);
    expect(new BaselineIndex([]).search('x')).toEqual([]);
  });
});
