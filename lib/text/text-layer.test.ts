import { describe, expect, it } from 'vitest';
import { repairSwappedBytes, repairTextLayer } from './text-layer';

/** What a byte-swapped ToUnicode map makes of a Latin letter: U+00XX → U+XX00. */
const swap = (s: string) => [...s].map((c) => String.fromCharCode(c.charCodeAt(0) << 8)).join('');

describe('repairing byte-swapped text', () => {
  it('restores Latin letters written as U+XX00 inside Latin words', () => {
    expect(repairSwappedBytes(`Pa${swap('rt')} List`)).toBe('Part List');
    expect(repairSwappedBytes(`Con${swap('fi')}guration and Speci${swap('fi')}cations`)).toBe('Configuration and Specifications');
    expect(repairSwappedBytes(`Ove${swap('rv')}iew`)).toBe('Overview');
  });

  it('leaves real CJK text alone, beside Latin letters or not', () => {
    for (const text of ['USB接口', '一个USB', '最大电流 3A', '外接驱动 ENA+', '电机', 'Näherung']) expect(repairSwappedBytes(text)).toBe(text);
    // A run of only such characters, with no Latin letter to anchor it, is not repaired.
    expect(repairSwappedBytes(swap('rt'))).toBe(swap('rt'));
  });

  it('keeps the length, so glyph positions still match', () => {
    const broken = `Suppo${swap('rt')}ed`;
    expect(repairSwappedBytes(broken)).toHaveLength(broken.length);
  });
});

describe('private-use characters', () => {
  it('become spaces: symbol-font glyphs with no meaning of their own', () => {
    expect(repairTextLayer('\uf075 | Supports RS485')).toBe('  | Supports RS485');
    expect(repairTextLayer(`Series Resistance \uf8fdOnly for reflection`)).toBe('Series Resistance  Only for reflection');
  });
});

describe('full-width ASCII', () => {
  it('becomes ASCII, one character for one; CJK text stays', () => {
    expect(repairTextLayer('Power supply：DC24~48V，（2）Set １．Product')).toBe('Power supply:DC24~48V,(2)Set 1.Product');
    expect(repairTextLayer('开关电源　GND')).toBe('开关电源 GND');
    const s = '（ＲＷ／Ｓ）';
    expect(repairTextLayer(s)).toHaveLength(s.length);
  });
});
