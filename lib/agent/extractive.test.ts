import { describe, expect, it } from 'vitest';
import type { RefHit } from '@/tools/tool';
import { Environment } from './environment';
import { extractiveAnswer, extractiveSummary } from './extractive';
import { chunk, resultOf } from './testing';

function hits(...texts: Array<[string, string?]>): RefHit[] {
  const env = new Environment();
  return env.add('fast_vector_search', resultOf(texts.map(([text, heading]) => chunk(text, { heading: heading ?? '' }))), 0);
}

const BATTERY = hits(
  ['The NanoVNA-H has a built-in 400 mAh lithium battery. Charging current is at most 0.8 A.', 'Specifications > Power'],
  ['Press and hold the power button for two seconds to switch the unit on.', 'Operation'],
  ['Calibrate with the SOL standards before every measurement session.', 'Calibration'],
);

describe('extractive answer', () => {
  it('answers with the best sentences, each cited with its [n]', () => {
    const a = extractiveAnswer('How big is the built-in battery and what is the charging current?', BATTERY);
    expect(a.declined).toBe(false);
    expect(a.text).toContain('400 mAh lithium battery [1].');
    expect(a.text).toContain('Charging current is at most 0.8 A [1].');
    expect(a.text).not.toContain('SOL standards');
    expect(a.refs).toEqual([1]);
  });

  it('cites the passage each sentence came from', () => {
    const a = extractiveAnswer('How do I switch the unit on with the power button?', BATTERY);
    expect(a.text).toMatch(/^Press and hold the power button for two seconds to switch the unit on \[2\]\./);
  });

  it('declines an unanswerable question instead of guessing', () => {
    const a = extractiveAnswer('What is the warranty period?', BATTERY);
    expect(a.declined).toBe(true);
    expect(a.text).toBe('The manuals do not say anything about warranty period.');
    expect(a.refs).toEqual([]);
  });

  it('declines when the passages share only a side word of the question ("period", not "warranty")', () => {
    const withPeriod = hits(
      ['The NanoVNA-H has a built-in 400 mAh lithium battery.'],
      ['The sweep period is 10 ms per 101 points.'],
      ['Calibrate with the SOL standards before every measurement session.'],
    );
    const a = extractiveAnswer('What is the warranty period?', withPeriod);
    expect(a.declined).toBe(true);
    expect(a.text).not.toContain('10 ms');
  });

  it('declines with nothing retrieved', () => {
    expect(extractiveAnswer('What is the warranty period?', []).text).toMatch(/^The manuals do not say anything about warranty period\./);
  });

  it('keeps the list that a sentence introduces', () => {
    const list = hits(['To reset the unit:\n1. Switch it off.\n2. Hold MENU.\n3. Switch it on.', 'Reset']);
    const a = extractiveAnswer('How do I reset the unit?', list);
    expect(a.text).toBe('To reset the unit [1]: 1. Switch it off [1]. 2. Hold MENU [1]. 3. Switch it on [1].');
  });

  it('summarizes extractively within the word limit, cited', () => {
    const s = extractiveSummary('battery charging current', BATTERY, 12);
    expect(s.split(/\s+/).length).toBeLessThanOrEqual(14);
    expect(s).toMatch(/\[1\]/);
  });
});
