import { describe, expect, it } from 'vitest';
import { findValue, isValueBox, valueBoxes } from './value-boxes';

describe('findValue', () => {
  it('finds a value as whole words, in the value lock’s matching form', () => {
    const text = 'Rail: 3.3 V ±5 %; ADC reference 3.3V';
    expect(findValue(text, '3.3V').map(([a, b]) => text.slice(a, b))).toEqual(['3.3 V', '3.3V']);
    expect(findValue(text, 'DC')).toEqual([]);
    expect(findValue('−40 °C to +85 °C', '-40 °C').map(([a, b]) => '−40 °C to +85 °C'.slice(a, b))).toEqual(['−40 °C']);
  });
});

describe('valueBoxes', () => {
  const lines = ['J1 | VCC | 5 V', 'J2 | VCC | 3.3 V'];
  const boxes = [
    { x: 0, y: 0, w: 170, h: 10 },
    { x: 0, y: 12, w: 170, h: 10 },
  ];

  it('looks only in the quoted lines when some are quoted: the same value may stand in another row', () => {
    const got = valueBoxes(lines, boxes, ['J2 supplies VCC at 3.3 V'], [1]);
    expect(got.map((b) => [b.line, b.value])).toEqual([
      [1, 'J2'],
      [1, 'VCC'],
      [1, '3.3 V'],
    ]);
    expect(got.every(isValueBox)).toBe(true);
  });

  it('boxes nothing for a quote without values', () => {
    expect(valueBoxes(lines, boxes, ['the pins are listed below'], [])).toEqual([]);
  });
});
