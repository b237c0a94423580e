import { describe, expect, it } from 'vitest';
import { askedKinds, unitKind, valueKinds } from './quantities';

const asked = (q: string, phrase: string) => [...askedKinds(q, phrase)];

describe('quantities', () => {
  it('reads the kind of a unit from js-quantities, with the symbols it spells differently', () => {
    expect(unitKind('mA')).toBe('current');
    expect(unitKind('kΩ')).toBe('resistance');
    expect(unitKind('MΩ')).toBe('resistance');
    expect(unitKind('°C')).toBe('temperature');
    expect(unitKind('Nm')).toBe('energy');
    expect(unitKind('dBm')).toBe('power');
    expect(unitKind('pins')).toBeNull();
  });

  it('finds the kinds of the values a passage states, with or without a space', () => {
    expect([...valueKinds('Fuse F1 T6.3A 250 V, 1 MΩ || 25 pF, 2.3 kg')].sort()).toEqual(['capacitance', 'current', 'mass', 'potential', 'resistance']);
    expect([...valueKinds('a 2 way connector with 10 pins')]).toEqual([]);
  });

  it('knows which questions ask for a value of a kind, and which do not', () => {
    expect(asked('What is the analog -3 dB bandwidth?', 'analog -3 dB bandwidth')).toEqual(['frequency']);
    expect(asked('What holding torque does the motor have?', 'holding torque')).toEqual(['energy']);
    expect(asked('What ambient operating temperature range is it rated for?', 'ambient operating temperature range')).toEqual(['temperature']);
    // a modifier of the phrase's first word asks for no quantity
    expect(asked('Which power supply does the board need?', 'power supply')).toEqual([]);
    // a unit asked for by name
    expect(asked('What is the sensitivity, in microvolts?', 'sensitivity')).toEqual(['potential']);
    // a value given in the question is not asked for
    expect(asked('Is 24 V fine for the drive?', '')).toEqual([]);
  });
});
