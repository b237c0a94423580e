import { describe, expect, it } from 'vitest';
import { designations, modelCore, modelMentions, variantOf } from './designations';

describe('maker + model mentions', () => {
  it('finds a designation after a capitalised maker name', () => {
    expect(modelMentions('How do I update the firmware of a Rigol DP832 power supply?')).toEqual([{ text: 'Rigol DP832', model: 'dp832' }]);
    expect(modelMentions('How do I enter firmware update mode on a Yaesu FT-65?')).toEqual([{ text: 'Yaesu FT-65', model: 'ft-65' }]);
    expect(modelMentions('Does the Hantek 6254BD use the same firmware?').map((m) => m.text)).toEqual(['Hantek 6254BD']);
  });

  it('lists every designation-shaped word, values aside', () => {
    expect(designations('Can the SKR Mini E3 V2.0 run on 24V from a Mean Well LRS-350?')).toEqual(['v2.0', 'lrs-350']);
  });

  it('takes no value, coordinate, lower-case context or first word for a model', () => {
    expect(modelMentions('Can a Mean Well supply deliver 24V and 1400mAh?')).toEqual([]);
    expect(modelMentions('Before moving the arm to X200 Y0 Z10, is the point reachable?')).toEqual([]);
    expect(modelMentions('After I hit the one-click LiFePO4 preset, what cut-off is set?')).toEqual([]);
    expect(modelMentions('Rigol DP832: how do I update it?')).toEqual([]);
  });
});

describe('a device named by its model alone', () => {
  it('is a hyphenated model between a determiner and a noun', () => {
    expect(modelMentions('Which pin resets a QX-40B board?')).toEqual([{ text: 'QX-40B', model: 'qx-40b' }]);
    expect(modelMentions('Where is the fuse on the HX-200 controller?')).toEqual([{ text: 'HX-200', model: 'hx-200' }]);
  });

  it('leaves codes, pins and values alone', () => {
    expect(modelMentions('What does the E05 error mean?')).toEqual([]);
    expect(modelMentions('Which wire goes to the SW6 switch?')).toEqual([]);
    expect(modelMentions('Is the 3-pin connector keyed?')).toEqual([]);
    expect(modelMentions('Which cable goes to the HX-200?')).toEqual([]);
    expect(modelMentions('Can a one-click preset be undone?')).toEqual([]);
  });
});

describe('a model that reads as a value', () => {
  it('is a model right after a maker written as a name', () => {
    expect(modelMentions('How do I zero a Zentro 48V bench meter?')).toEqual([{ text: 'Zentro 48V', model: '48v' }]);
    expect(modelMentions('Which probe fits the Quillon 3015BE scope?')).toEqual([{ text: 'Quillon 3015BE', model: '3015be' }]);
  });

  it('stays a value after an acronym, a stop word, a lower-case word or at a sentence start', () => {
    expect(modelMentions('Can the controller run from a 24V supply?')).toEqual([]);
    expect(modelMentions('Is the DC 24V input fused on the controller?')).toEqual([]);
    expect(modelMentions('The fan is slow. Apply 12V to the fan?')).toEqual([]);
    expect(modelMentions('Is it safe? The 24V rail is hot.')).toEqual([]);
  });
});

describe('model cores and variants', () => {
  it('drops hyphens and a variant suffix, unless only a number would remain', () => {
    expect(modelCore('qx-40a')).toBe('qx40');
    expect(modelCore('48v')).toBe('48v');
    expect(variantOf('qx-40c')).toEqual({ stem: 'qx40', suffix: 'c' });
    expect(variantOf('hx-200')).toBeUndefined();
    // a long letter run is words run together (a file name's), not a variant
    expect(variantOf('cl57r-closed-loop')).toBeUndefined();
  });
});
