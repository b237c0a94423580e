import { describe, expect, it } from 'vitest';
import { designations, modelMentions } from './designations';

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
