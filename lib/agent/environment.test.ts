import { describe, expect, it } from 'vitest';
import type { BBox } from '@/lib/providers/types';
import { Environment, quotedBoxes } from './environment';
import { chunk, page, resultOf } from './testing/turn';

describe('Environment', () => {
  it('numbers hits once per turn: the same chunk or page found again keeps its ref', () => {
    const env = new Environment();
    const a = chunk('alpha', { chunkId: 'a' });
    const b = chunk('beta', { chunkId: 'b' });
    expect(env.add('fast_vector_search', resultOf([a, b]), 0).map((h) => h.ref)).toEqual([1, 2]);
    const again = env.add('hybrid_search', resultOf([chunk('beta', { chunkId: 'b', score: 0.9 }), page('m1', 3)], 'hybrid'), 1);
    expect(again.map((h) => h.ref)).toEqual([2, 3]);
    expect(env.hit(2)!.score).toBe(0.9);
    expect(Object.keys(env.results)).toEqual(['fast_vector_search', 'hybrid_search']);
    expect(env.results.hybrid_search.hybrid[0].refs).toEqual([2, 3]);
  });

  it('a VLM reading replaces the page text but keeps the page ref', () => {
    const env = new Environment();
    env.add('colqwen_search', resultOf([page('m1', 7, { text: 'J1 connector', score: 0.8 })], 'pages'), 0);
    env.add('visual_interpretation', resultOf([page('m1', 7, { text: 'Pin 3 is HEATER.', textSource: 'vlm', score: 0.8 })], 'interpretation'), 1);
    expect(env.hits()).toHaveLength(1);
    expect(env.hit(1)!.text).toBe('Pin 3 is HEATER.');
    expect(env.visualPages()).toEqual([{ manualId: 'm1', page: 7, score: 0.8, ref: 1 }]);
  });

  it('estimates tokens and compacts long passages to the sentences relevant to the question', () => {
    const env = new Environment();
    const filler = 'Unrelated remarks about packaging and shipping. '.repeat(200);
    env.add('hybrid_search', resultOf([chunk(`${filler}The relief valve opens at 8 bar. ${filler}`)]), 0);
    expect(env.estimateTokens()).toBeGreaterThan(4000);
    env.applySummary('Relief valve: 8 bar [1].', 'At what pressure does the relief valve open?', 300);
    expect(env.hit(1)!.text!.length).toBeLessThanOrEqual(301);
    expect(env.hit(1)!.text).toContain('The relief valve opens at 8 bar.');
    expect(env.summarizedVersion).toBe(env.version);
    expect(env.describe()).toContain('Summary so far: Relief valve: 8 bar [1].');
  });
});

/** Adds one hybrid_search passage with a box per line to `env` and returns its hit. */
function hybridHit(env: Environment, text: string, bboxes: BBox[]) {
  const [hit] = env.add('hybrid_search', resultOf([chunk(text, { bboxes })]), 0);
  return hit;
}

describe('quoted boxes', () => {
  it('boxes only the passage lines the answer quotes, then the values they state', () => {
    const env = new Environment();
    const hit = hybridHit(env, 'Specifications\nThe fuse is rated 2 A slow-blow.\nThe supply is 24 V DC.', [
      { x: 10, y: 10, w: 80, h: 10 },
      { x: 10, y: 22, w: 200, h: 10 },
      { x: 10, y: 34, w: 150, h: 10 },
    ]);
    const [source] = env.sourcesFor(`The fuse is rated 2 A slow-blow [${hit.ref}].`);
    // "2 A" is characters 18–21 of the 32 in its line: placed by that share until the PDF refines it
    expect(source.bboxes).toEqual([
      { x: 10, y: 22, w: 200, h: 10 },
      { x: 10 + (200 * 18) / 32, y: 22, w: (200 * 3) / 32, h: 10, value: '2 A' },
    ]);
    expect(quotedBoxes(hit, ['Nothing on this page says that.'])).toBeUndefined();
    // a table row is quoted with its header's words: still its own line
    const row = hybridHit(env, 'Supply voltage | 24 V DC\nMaximum current | 3.5 A', [
      { x: 1, y: 1, w: 1, h: 1 },
      { x: 2, y: 2, w: 2, h: 2 },
    ]);
    // "24 V" and "DC" stand side by side: one box
    expect(quotedBoxes(row, ['Parameter: Supply voltage; Value: 24 V DC'])).toEqual([
      { x: 1, y: 1, w: 1, h: 1 },
      { x: 1 + 17 / 24, y: 1, w: 7 / 24, h: 1, value: '24 V DC' },
    ]);
  });

  it('a paraphrase that quotes no line whole still boxes the value it cites, with its line', () => {
    const env = new Environment();
    const hit = hybridHit(env, 'ADC input range | 0–5 V\nSupply voltage | 24 V DC ±10 %, reverse-polarity protected', [
      { x: 0, y: 0, w: 100, h: 10 },
      { x: 0, y: 20, w: 300, h: 10 },
    ]);
    const boxes = quotedBoxes(hit, ['The controller runs from DC, 24 V to be exact']);
    expect(boxes?.[0]).toEqual({ x: 0, y: 20, w: 300, h: 10 });
    // "DC" is not read inside "ADC"; the value keeps the page's own spelling
    expect(boxes?.slice(1).map((b) => (b as { value?: string }).value)).toEqual(['24 V DC']);
  });
});
