import { describe, expect, it } from 'vitest';
import { isStopword, normalizeText, simpleTokens, tokenize } from './text';

const texts = (s: string, partWeight?: number) => tokenize(normalizeText(s), partWeight).map((t) => t.text);

describe('normalizeText', () => {
  it('joins numbers to their units so "3.3 V" and "3.3V" tokenise alike', () => {
    expect(texts('3.3 V regulator')).toEqual(texts('3.3V regulator'));
    expect(texts('max 0.8 A, 400 mAh')).toEqual(['max', '0.8a', '400mah']);
  });

  it('does not glue a number to a following word', () => {
    expect(texts('2 adapters')).toEqual(['2', 'adapters']);
  });

  it('unifies the Unicode minus and dashes', () => {
    expect(normalizeText('\u221240 to +85 \u00b0C')).toBe('-40 to +85°C');
    expect(normalizeText('ESP32\u2013POE')).toBe('ESP32-POE');
  });

  it('drops possessives and closes contractions', () => {
    expect(texts("the DLC32's driver doesn't load")).toEqual(['the', 'dlc32', 'driver', 'doesnt', 'load']);
  });
});

describe('tokenize', () => {
  it('keeps decimal points but splits compounds into weighted parts', () => {
    const toks = tokenize(normalizeText('ESP32-POE v2.0 GNDPA8+5U'));
    expect(toks.map((t) => [t.text, t.weight])).toEqual([
      ['esp32poe', 1],
      ['esp32', 0.5],
      ['poe', 0.5],
      ['v2.0', 1],
      ['gndpa85u', 1],
      ['gndpa8', 0.5],
      ['5u', 0.5],
    ]);
  });

  it('emits no parts when partWeight is 0', () => {
    expect(texts('ESP32-POE', 0)).toEqual(['esp32poe']);
  });

  it('marks capitalised words as acronyms so "CAN" is not a stopword but "can" is', () => {
    const [can] = tokenize(normalizeText('CAN transceiver'));
    const [modal] = tokenize(normalizeText('can transceiver'));
    expect(can).toMatchObject({ text: 'can', acronym: true });
    expect(isStopword(can)).toBe(false);
    expect(isStopword(modal)).toBe(true);
  });

  it('ignores pure punctuation', () => {
    expect(texts('— … (!) •')).toEqual([]);
  });
});

describe('simpleTokens', () => {
  it('lower-cases alphanumeric runs', () => {
    expect(simpleTokens('Pin PA8, GND!')).toEqual(['pin', 'pa8', 'gnd']);
  });
});
