import { describe, expect, it } from 'vitest';
import { checkValues, valuesIn } from './values';

describe('valuesIn', () => {
  it('keeps a number with its unit, part numbers, codes and pin names', () => {
    expect(valuesIn('Set it to 3.3 V, then 80A for 10 s.')).toEqual(['3.3 V', '80A', '10 s']);
    expect(valuesIn('The gyro is an ICM42688P on UART2; hold BOOT.')).toEqual(['ICM42688P', 'UART2', 'BOOT']);
    expect(valuesIn('Operating range -40 °C to 85 °C, part 159-0021-00.')).toEqual(['-40 °C', '85 °C', '159-0021-00']);
  });
  it('ignores ordinary words and a capitalised first word', () => {
    expect(valuesIn('The Fuse must be replaced by a qualified technician.')).toEqual([]);
  });
});

describe('checkValues', () => {
  const sources = new Map([
    [1, 'Output voltage: 0 V to 32 V. Maximum current 3.2 A.'],
    [2, 'Firmware target: SPEEDYBEEF405V4'],
  ]);
  it('verifies values against the passage each sentence cites, ignoring spacing and case', () => {
    const r = checkValues('The output reaches 32V and 3.2 A [1]. Pick SpeedyBeeF405V4 [2].', sources);
    expect(r.checked).toBe(3);
    expect(r.unverified).toEqual([]);
  });
  it('flags a value the cited passage does not contain, even if another passage has it', () => {
    const r = checkValues('The maximum current is 5 A [1]. The target is 32 V [2].', sources);
    expect(r.unverified.map((u) => u.value)).toEqual(['5 A', '32 V']);
    expect(r.unverified[1]).toMatchObject({ sentence: 1, refs: [2] });
  });
  it('checks an uncited sentence against every passage the answer cites', () => {
    const r = checkValues('It gives 0 V to 32 V [1]. Never exceed 40 V.', sources);
    expect(r.unverified.map((u) => u.value)).toEqual(['40 V']);
  });
});

describe('checkValues with manual names', () => {
  it('does not count a model number that is part of a searched manual name as a claim', () => {
    const sources = new Map([[8, 'The USB serial port chip uses CH340.']]);
    const note =
      'Note: I found no answer in a manual for olimex-agonlight2-user-manual; what follows is from mks-dlc32-v2-wiring-manual, a different device. The chip is CH340 [8].';
    expect(checkValues(note, sources).unverified.length).toBeGreaterThan(0);
    const r = checkValues(note, sources, ['olimex-agonlight2-user-manual', 'mks-dlc32-v2-wiring-manual']);
    expect(r.unverified).toEqual([]);
    // A value that is not in a name is still checked.
    expect(checkValues('It draws 5 A [8].', sources, ['mks-dlc32-v2-wiring-manual']).unverified.map((u) => u.value)).toEqual(['5 A']);
  });
});
