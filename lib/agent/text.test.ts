import { describe, expect, it } from 'vitest';
import { contentTerms, numbersIn, passageCoverage, searchTermGroups, searchTerms, stem } from './text';
import { citedRefs, splitSentences, stripCitations } from '@/lib/text/sentences';

describe('text utilities', () => {
  it('splits sentences without breaking abbreviations, decimals or citations', () => {
    expect(splitSentences('See Fig. 3 for the layout. The rail is 3.3 V [2]. Next.\n- item one\n- item two')).toEqual([
      'See Fig. 3 for the layout.',
      'The rail is 3.3 V [2].',
      'Next.',
      '- item one',
      '- item two',
    ]);
    // a citation after the full stop belongs to the sentence before it
    expect(splitSentences('The fuse is 2 A. [1] Replace it with the same type [1][3].')).toEqual([
      'The fuse is 2 A. [1]',
      'Replace it with the same type [1][3].',
    ]);
  });

  it('reads citations, including grouped ones', () => {
    expect(citedRefs('A [1]. B [2, 3]. C [1].')).toEqual([1, 2, 3]);
    expect(stripCitations('Value is 5 V [4].')).toBe('Value is 5 V.');
  });

  it('keeps part numbers and decimals as terms and drops question scaffolding', () => {
    expect(contentTerms('What is the input impedance of the ESP32-POE at 3.3 V?')).toEqual(['input', 'impedanc', 'esp32-poe', '3.3']);
    expect(stem('codes')).toBe(stem('code'));
    expect(stem('replacing')).toBe(stem('replace'));
    expect(stem('weight')).toBe(stem('weigh'));
    expect(stem('batteries')).toBe('battery');
    expect(numbersIn('Set 0x1F, wait 2.50 s, then 400')).toEqual(['0x1f', '2.5', '400']);
  });

  it('coverage is high when a passage answers and low when the question names something absent', () => {
    const passages = ['The battery capacity is 400 mAh.', 'Charging current is at most 0.8 A.', 'The case is ABS plastic.'];
    expect(passageCoverage('How big is the battery?', passages).coverage).toBeGreaterThan(0.7);
    const warranty = passageCoverage('What is the warranty period?', [...passages, 'The sampling period is 10 ms.']);
    expect(warranty.coverage).toBeLessThan(0.5);
    expect(warranty.missing).toEqual(['warranty']);
  });

  it('search terms meet the way manuals write values, part numbers and counts', () => {
    // a number and its unit, with or without the space
    expect(searchTerms('3.3 V')).toEqual(['3.3v', '3.3']);
    expect(searchTerms('3.3V')).toEqual(['3.3v', '3.3']);
    expect(searchTerms('0.8 A max')).toEqual(expect.arrayContaining(['0.8a', '0.8']));
    // compounds give their parts, codes their letter prefix
    expect(searchTerms('ESP32-POE-ISO')).toEqual(['esp32-poe-iso', 'esp', 'esp32', 'poe', 'iso']);
    expect(searchTerms('IP65')).toEqual(['ip65', 'ip']);
    // number words and abbreviated numbers
    expect(searchTerms('ten boards')).toEqual(['10', 'board']);
    expect(searchTerms('Part no.')).toEqual(['part', 'number']);
  });

  it('a query compound the index knows is searched whole, an unknown one by its parts', () => {
    const known = (t: string) => ['hx-200', 'hx', '200'].includes(t);
    expect(searchTermGroups('HX-200 fuse', known)).toEqual([['hx-200'], ['fus']]);
    expect(searchTermGroups('NanoVNA-H battery', (t) => t !== 'nanovna-h')).toEqual([['nanovna'], ['battery']]);
  });
});