import { describe, expect, it } from 'vitest';
import {
  firstRelevantRank,
  hitAtK,
  judgeRefusal,
  keywordHit,
  latencySummary,
  lcsLength,
  madeUpValues,
  mean,
  missingKeywords,
  normalizeForMatch,
  percentile,
  rankPages,
  reciprocalRank,
  rougeL,
  saysNotInManuals,
  stripCitations,
  wordTokens,
  wrongDeviceAt1,
} from './metrics';

describe('chunk hits → ranked unique pages', () => {
  it('keeps the first (best) occurrence of each (manual, page), in order', () => {
    const hits = [
      { manualId: 'a', page: 3, id: 'a:3:0' },
      { manualId: 'a', page: 3, id: 'a:3:1' },
      { manualId: 'b', page: 3, id: 'b:3:0' },
      { manualId: 'a', page: 7, id: 'a:7:0' },
      { manualId: 'b', page: 3, id: 'b:3:2' },
      { manualId: 'a', page: 1, id: 'a:1:0' },
    ];
    expect(rankPages(hits)).toEqual([
      { manualId: 'a', page: 3 },
      { manualId: 'b', page: 3 },
      { manualId: 'a', page: 7 },
      { manualId: 'a', page: 1 },
    ]);
    expect(rankPages(hits, 2)).toHaveLength(2);
  });

  it('a page of the wrong manual does not count; the first expected page of the right one does', () => {
    const ranked = [
      { manualId: 'other', page: 9 },
      { manualId: 'm', page: 2 },
      { manualId: 'm', page: 9 },
      { manualId: 'm', page: 7 },
    ];
    expect(firstRelevantRank(ranked, 'm', [9])).toBe(3);
    expect(firstRelevantRank(ranked, 'm', [7, 9])).toBe(3); // multi-hop: any expected page
    expect(firstRelevantRank(ranked, 'm', [4])).toBeNull();
    expect(firstRelevantRank(ranked, null, [9])).toBeNull();
    expect(firstRelevantRank(ranked, 'm', [])).toBeNull();
  });

  it('Recall@k and MRR from ranks', () => {
    const ranks = [1, 2, null, 5, 4];
    expect(mean(ranks.map((r) => hitAtK(r, 1)))).toBe(0.2);
    expect(mean(ranks.map((r) => hitAtK(r, 3)))).toBe(0.4);
    expect(mean(ranks.map((r) => hitAtK(r, 5)))).toBe(0.8);
    expect(mean(ranks.map(reciprocalRank))).toBeCloseTo((1 + 0.5 + 0 + 0.2 + 0.25) / 5, 10);
    expect(mean([])).toBeNull();
  });
});

describe('keyword hit (README: all keywords, case- and whitespace-insensitive, U+2212 as -)', () => {
  it('ignores case and every kind of whitespace, on both sides', () => {
    expect(normalizeForMatch(' 400 mAh\n0.8\tA ')).toBe('400mah0.8a');
    expect(keywordHit('The battery is 400 mAh; it charges at up to 0.8 A.', ['400mAh', '0.8A'])).toBe(true);
    expect(keywordHit('Set it to ZERO-SPAN… square wave around −13 dBm', ['zero span', 'square', '-13'])).toBe(false); // "ZERO-SPAN" ≠ "zerospan"
    expect(keywordHit('Use zero  span; a square wave at about −13 dBm', ['zero span', 'square', '-13'])).toBe(true); // U+2212
    expect(keywordHit('1 MΩ in parallel with 25pF', ['1 M', '25 pF'])).toBe(true);
  });

  it('needs every keyword; an empty list is never a hit', () => {
    expect(keywordHit('STM32F072 microcontroller', ['STM32F072', 'XC6206'])).toBe(false);
    expect(missingKeywords('STM32F072 microcontroller', ['STM32F072', 'XC6206'])).toEqual(['XC6206']);
    expect(keywordHit('anything', [])).toBe(false);
  });
});

describe('refusals on unanswerable questions', () => {
  const q = "I'm switching a 4696 over to 220 V mains. Which replacement line fuse (rating or Tek part number) goes in?";

  it('recognises the agent wording and common LLM phrasings', () => {
    for (const text of [
      'The manuals do not say anything about replacement line fuse.',
      "The manual doesn't mention the -3 dB bandwidth.",
      'This is not covered in the manuals.',
      'I could not find the fuse rating in the provided documents.',
      'None of the passages mention a 220 V fuse.',
      'The provided sources do not specify it.',
    ]) {
      expect(saysNotInManuals(text), text).toBe(true);
    }
    expect(saysNotInManuals('Use a 0.5 A slow-blow fuse [2].')).toBe(false);
  });

  it('a refusal that states a value not in the question is a made-up value', () => {
    expect(madeUpValues('The manuals do not say which fuse fits the 4696 at 220 V [3].', q)).toEqual([]);
    expect(madeUpValues('The manuals do not list it, but a 0.25 A fuse (159-0021-00) is typical.', q)).toEqual(['0.25', '159', '21', '0']);
    expect(judgeRefusal({ text: 'The manuals do not say anything about 4696 220 replacement line fuse.', declined: true }, q)).toEqual({
      refused: true,
      declined: true,
      madeUp: [],
    });
    expect(judgeRefusal({ text: 'The manuals do not say; try 0.25 A.' }, q).refused).toBe(false);
    // declined flag alone is enough when the text is neutral
    expect(judgeRefusal({ text: 'No answer.', declined: true }, q).refused).toBe(true);
    // an answer is not a refusal
    expect(judgeRefusal({ text: 'Fit a 0.25 A fuse [1].', declined: false }, q)).toMatchObject({ refused: false, declined: false });
  });
});

describe('latency percentiles', () => {
  it('interpolates linearly between the nearest ranks', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 95)).toBeCloseTo(95.5, 10);
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(latencySummary([12.345, 40, 8])).toEqual({ p50: 12.3, p95: 37.2 });
  });
});

describe('wrong device at rank 1', () => {
  it('is a first page from another manual than the question’s; nothing retrieved is not', () => {
    expect(wrongDeviceAt1([{ manualId: 'b', page: 3 }, { manualId: 'a', page: 2 }], 'a')).toBe(true);
    expect(wrongDeviceAt1([{ manualId: 'a', page: 9 }, { manualId: 'b', page: 2 }], 'a')).toBe(false);
    expect(wrongDeviceAt1([], 'a')).toBe(false);
    expect(wrongDeviceAt1([{ manualId: 'a', page: 1 }], null)).toBe(true);
  });
});

describe('ROUGE-L over lower-cased word tokens', () => {
  it('splits into lower-cased words, keeping values and codes whole', () => {
    expect(wordTokens('Set the HX-200 to −12.5 dBm; it’s V1.2 [1].')).toEqual(['set', 'the', 'hx-200', 'to', '12.5', 'dbm', 'it’s', 'v1.2', '1']);
    expect(wordTokens(' … ')).toEqual([]);
    expect(stripCitations('Fit a 2 A fuse [1, 3] (see [2]).')).toBe('Fit a 2 A fuse   (see  ).');
  });

  it('finds the longest common subsequence, not substring', () => {
    expect(lcsLength(['a', 'b', 'c', 'b', 'd', 'a', 'b'], ['b', 'd', 'c', 'a', 'b', 'a'])).toBe(4); // b c b a
    expect(lcsLength(['x'], [])).toBe(0);
    expect(lcsLength(['a', 'b'], ['b', 'a'])).toBe(1);
  });

  it('precision over the candidate, recall over the reference, F1 their harmonic mean', () => {
    // candidate 5 tokens, all in the reference's 9 in order: P 1, R 5/9, F1 2·(5/9)/(14/9) = 10/14
    const r = rougeL('The fuse is 2 A', 'the fuse rating is 2 A at 230 V');
    expect(r.precision).toBe(1);
    expect(r.recall).toBeCloseTo(5 / 9, 10);
    expect(r.f1).toBeCloseTo(10 / 14, 10);
    // order matters: "b a" against "a b" shares one token in order
    expect(rougeL('b a', 'a b')).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5 });
    // 3 of 6 candidate tokens (press, hold, 5) in order among the reference's 4: P 0.5, R 0.75, F1 0.6
    const s = rougeL('Press and hold for about 5', 'press, hold 5 s');
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBe(0.75);
    expect(s.f1).toBeCloseTo(0.6, 10);
  });

  it('scores 0 with nothing in common or an empty side', () => {
    expect(rougeL('blue', 'red')).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(rougeL('', 'red')).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(rougeL('red', '')).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});
