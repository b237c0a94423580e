import { describe, expect, it } from 'vitest';
import { checkAnswer, checkLexically } from './check';
import { jsonResult, mockLlm, promptText } from '@/lib/agent/testing/turn';

const SOURCES = new Map([
  [1, 'The motor is rated at 230 V and draws 6.8 A at full load.'],
  [2, 'Clean the inlet strainer every 500 hours.'],
]);

describe('answer check', () => {
  it('flags a sentence its cited source does not support, and passes the supported ones', () => {
    const answer = 'The motor draws 6.8 A at full load [1]. Clean the inlet strainer every 500 hours [2]. The warranty lasts 24 months [1].';
    const r = checkLexically(answer, SOURCES);
    expect(r.method).toBe('lexical');
    expect(r.checked).toBe(3);
    expect(r.unsupported).toEqual([{ index: 2, sentence: 'The warranty lasts 24 months [1].', refs: [1], reason: expect.stringContaining('24') }]);
  });

  it('flags a number that differs from the source even when the words match', () => {
    const r = checkLexically('Clean the inlet strainer every 50 hours [2].', SOURCES);
    expect(r.unsupported[0].reason).toContain('50 does not appear');
  });

  it('flags a citation to a source that was never retrieved, and ignores declines', () => {
    expect(checkLexically('The motor draws 6.8 A [7].', SOURCES).unsupported[0].reason).toContain('[7]');
    expect(checkLexically('The manuals do not say anything about warranty.', SOURCES)).toMatchObject({ checked: 0, unsupported: [] });
  });

  it('uses the LLM judge when an LLM exists', async () => {
    const { client, model } = mockLlm({
      generate: [
        jsonResult({
          verdicts: [
            { index: 0, supported: true },
            { index: 1, supported: false, reason: 'source says 500 hours' },
          ],
        }),
      ],
    });
    const r = await checkAnswer('The motor draws 6.8 A [1]. Clean it every 100 hours [2].', SOURCES, { llm: client });
    expect(r.method).toBe('llm');
    expect(r.unsupported).toEqual([{ index: 1, sentence: 'Clean it every 100 hours [2].', refs: [2], reason: 'source says 500 hours' }]);
    expect(promptText(model.doGenerateCalls[0])).toContain('[2] Clean the inlet strainer every 500 hours.');
  });

  it('falls back to the lexical check when the judge returns garbage', async () => {
    const { client } = mockLlm({ generate: [jsonResult({ nope: true })] });
    const r = await checkAnswer('The warranty lasts 24 months [1].', SOURCES, { llm: client });
    expect(r.method).toBe('lexical');
    expect(r.unsupported).toHaveLength(1);
  });
});
