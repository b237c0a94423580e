import { describe, expect, it } from 'vitest';
import { askedPhrases, askedQuantities, QUANTITY_KINDS, statesQuantity } from './quantities';

const kinds = (q: string) => askedQuantities(q).map((k) => k.name);
const kind = (name: string) => QUANTITY_KINDS.find((k) => k.name === name)!;

describe('asked quantities', () => {
  it('reads the phrase after what / which / how much', () => {
    expect(askedPhrases('What is the warranty period?')).toEqual(['warranty period']);
    expect(askedPhrases('How often does the battery need replacing, and what type is it?')).toEqual(['how often', 'type is it']);
  });

  it('knows which questions ask for a value of a kind, and which do not', () => {
    expect(kinds('What is the analog -3 dB bandwidth of the input channels?')).toEqual(['frequency']);
    expect(kinds('How much current must the VCC pins deliver, and at what default voltage?')).toEqual(['voltage', 'current']);
    expect(kinds('What torque do I tighten the X1 screws to?')).toEqual(['torque']);
    expect(kinds('How often should the strainer be cleaned?')).toEqual(['time']);
    expect(kinds('Which replacement line fuse goes in?')).toEqual(['current']);
    // not a quantity: a part, a procedure, the power supply, a driver
    expect(kinds('Which driver do I need, and can the board run from USB power alone?')).toEqual([]);
    expect(kinds('How do I calibrate the pressure transducer?')).toEqual([]);
    expect(kinds('Which power supply does the board need?')).toEqual([]);
    expect(kinds('Which power chip supplies the board?')).toEqual([]);
    expect(kinds('How much total power must the switch supply?')).toEqual(['power']);
  });

  it('finds values of the kind, with or without a space, and not other units', () => {
    expect(statesQuantity('maximum charging current 0.8A', kind('current'))).toBe(true);
    expect(statesQuantity('Fuse F1 T6.3A 250 V', kind('current'))).toBe(true);
    expect(statesQuantity('a 5 V rail and a 2 way connector', kind('current'))).toBe(false);
    expect(statesQuantity('every 500 operating hours', kind('time'))).toBe(true);
    expect(statesQuantity('1 MΩ || 25 pF', kind('impedance'))).toBe(true);
    expect(statesQuantity('Modbus RTU, 9600 to 115200 baud', kind('length'))).toBe(false);
    expect(statesQuantity('Weight | 2.3 kg', kind('weight'))).toBe(true);
  });
});
