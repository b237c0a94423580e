import { describe, expect, it } from 'vitest';
import { charNgrams, distinctTerms, isStopToken, isStopword, matchTerms, stem, termGroups, terms, tokens, words } from './analyze';
import { Bm25Index } from './bm25';

describe('text analysis', () => {
  it('keeps part numbers, decimals and compounds whole, and lower-cases', () => {
    expect(words('The ESP32-POE runs at 3.3 V; STM32F072 ‒ see “Fig. 2”')).toEqual([
      'the',
      'esp32-poe',
      'runs',
      'at',
      '3.3',
      'v',
      'stm32f072',
      'see',
      'fig',
      '2',
    ]);
  });

  it('stems words with the Porter stemmer and leaves codes as written', () => {
    expect(stem('connectors')).toBe('connector');
    expect(stem('wiring')).toBe(stem('wired'));
    expect(stem('e23')).toBe('e23');
    expect(terms('Code E23')).toEqual(['code', 'e23']);
  });

  it('drops stop words, joins numbers to units either way and adds the parts of compounds', () => {
    expect(terms('the supply is 24 V')).toEqual(['suppli', '24', '24v']);
    expect(terms('24V')).toEqual(['24v', '24']);
    expect(terms('ESP32-POE-ISO')).toEqual(['esp32-poe-iso', 'esp32', 'poe', 'iso']);
    expect(distinctTerms('fan fans FAN')).toEqual(['fan']);
  });

  it('drops the function words of the maintained list', () => {
    expect(distinctTerms('What is the input impedance of the ESP32-POE at 3.3 V?')).toEqual(['input', 'imped', 'esp32-poe', 'esp32', 'poe', '3.3', '3.3v']);
    expect(isStopword('the')).toBe(true);
    expect(isStopword('battery')).toBe(false);
  });

  it('match terms meet the way manuals write values, part numbers and counts', () => {
    // a number and its unit, with or without the space
    expect(matchTerms('3.3 V')).toEqual(['3.3', '3.3v']);
    expect(matchTerms('3.3V')).toEqual(['3.3v', '3.3']);
    expect(matchTerms('0.8 A max')).toEqual(expect.arrayContaining(['0.8a', '0.8']));
    // compounds give their parts, codes their letter prefix
    expect(matchTerms('ESP32-POE-ISO')).toEqual(['esp32-poe-iso', 'esp', 'esp32', 'poe', 'iso']);
    expect(matchTerms('IP65')).toEqual(['ip65', 'ip']);
    // number words and abbreviated numbers
    expect(matchTerms('ten boards')).toEqual(['10', 'board']);
    expect(matchTerms('Part no.')).toEqual(['part', 'number']);
  });

  it('a query compound the passages know is matched whole, an unknown one by its parts', () => {
    const known = (t: string) => ['hx-200', 'hx', '200'].includes(t);
    expect(termGroups('HX-200 fuse', known)).toEqual([['hx-200'], ['fuse']]);
    expect(termGroups('NanoVNA-H battery', (t) => t !== 'nanovna-h')).toEqual([['nanovna'], ['batteri']]);
  });

  it('gives words boundary-marked character trigrams', () => {
    expect(charNgrams('gnd')).toEqual(['^gn', 'gnd', 'nd$']);
  });
});

describe('BM25', () => {
  const index = new Bm25Index([terms('fuse rating 2 A fuse'), terms('supply voltage 24 V'), terms('fuse holder location')]);

  it('ranks the document with more and rarer matches first and skips documents without any', () => {
    const hits = index.search(terms('fuse rating'), 10);
    expect(hits.map((h) => h.doc)).toEqual([0, 2]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('scores one document the same way as the whole search does', () => {
    const q = terms('fuse holder');
    expect(index.score(q, 2)).toBeCloseTo(index.scores(q).get(2)!, 10);
    expect(index.tf('fuse', 0)).toBe(2);
    expect(index.idf('fuse')).toBeLessThan(index.idf('holder'));
    expect(index.scoreEach(q)).toEqual([index.score(q, 0), 0, index.score(q, 2)]);
  });
});

// What the offline embedder (lib/providers/embeddings/hashed-ngrams.ts) relies on.
describe('tokens (the embedder tokenizer)', () => {
  const texts = (s: string, partWeight?: number) => tokens(s, partWeight).map((t) => t.text);

  it('joins a number to its unit with or without a space, and keeps decimal points', () => {
    expect(texts('3.3 V regulator')).toEqual(texts('3.3V regulator'));
    expect(texts('max 0.8 A, 400 mAh, -40 to +85 °C')).toEqual(['max', '0.8a', '400mah', '40', 'to', '85c']);
    expect(texts('firmware v2.0 at 3.3')).toEqual(['firmware', 'v2.0', 'at', '3.3']);
  });

  it('does not glue a number to a word that is no unit, nor to a lower-case stop word', () => {
    expect(texts('2 adapters')).toEqual(['2', 'adapters']);
    expect(texts('insert 2 in the slot')).toEqual(['insert', '2', 'in', 'the', 'slot']);
    expect(texts('fuse 5 A')).toEqual(['fuse', '5a']);
  });

  it('keeps a compound whole and adds its parts at the part weight', () => {
    expect(tokens('ESP32-POE GNDPA8+5U').map((t) => [t.text, t.weight])).toEqual([
      ['esp32poe', 1],
      ['esp32', 0.5],
      ['poe', 0.5],
      ['gndpa85u', 1],
      ['gndpa8', 0.5],
      ['5u', 0.5],
    ]);
    expect(texts('ESP32-POE', 0)).toEqual(['esp32poe']);
  });

  it('marks words in capitals as acronyms, which the stop-word list never drops', () => {
    const [can] = tokens('CAN transceiver');
    const [modal] = tokens('can transceiver');
    expect(can).toMatchObject({ text: 'can', acronym: true });
    expect(isStopToken(can)).toBe(false);
    expect(isStopToken(modal)).toBe(true);
    // The stop words are lib/text's one list.
    expect(tokens('does not').every(isStopToken)).toBe(true);
    expect(isStopword('does')).toBe(true);
  });

  it('unifies dashes, drops possessives and closes contractions', () => {
    expect(texts('ESP32\u2013POE')).toEqual(texts('ESP32-POE'));
    expect(texts("the DLC32's driver doesn't load")).toEqual(['the', 'dlc32', 'driver', 'doesnt', 'load']);
    expect(texts('— … (!) •')).toEqual([]);
  });
});
