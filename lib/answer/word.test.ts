import { describe, expect, it } from 'vitest';
import { declineSentence, notReadySentence, uncoveredVariantSentence, unknownDeviceSentence, whereLooked } from './word';

describe('declineSentence', () => {
  it('is a fixed, whole sentence that names what was looked for and where', () => {
    expect(declineSentence('What holding torque does the motor have?', 'Stepper Drive Manual')).toBe(
      'The manuals do not say: I found no passage giving the holding torque in Stepper Drive Manual.',
    );
    expect(declineSentence('Walk me through the calibration.')).toBe('The manuals do not say: I found no passage in the manuals searched that answers this question.');
  });
  it('names a manual only when the question names its device and the title adds no number', () => {
    expect(whereLooked('What MTBF does the DP832 have?', 'DP800 Series User Guide', true)).toBe('the manuals searched');
    expect(whereLooked('What MTBF does the DP800 have?', 'DP800 Series User Guide', true)).toBe('DP800 Series User Guide');
    expect(whereLooked('What MTBF does it have?', 'DP800 Series User Guide', false)).toBe('the manuals searched');
  });
});

describe('whereLooked with decimals', () => {
  it('does not name a title whose number the question writes differently (V2.0 is not v2)', () => {
    expect(whereLooked("What's the maximum current the SKR Mini E3 V2.0 bed output is rated for?", 'btt-skr-mini-e3-v2-manual', true)).toBe('the manuals searched');
    expect(whereLooked('What does the SKR Mini E3 V2 bed output take?', 'btt-skr-mini-e3-v2-manual', true)).toBe('btt-skr-mini-e3-v2-manual');
  });
});

describe('not covered and not ready', () => {
  it('names the variants the manuals list, and a manual still processing with its progress', () => {
    expect(uncoveredVariantSentence([{ asked: 'QX-40C', listed: ['QX-40A', 'QX-40B'] }])).toBe(
      'The manuals do not cover the QX-40C: they list the QX-40A and QX-40B but not the QX-40C.',
    );
    expect(notReadySentence([{ device: 'HX-200', percent: 41 }])).toBe('The HX-200 manual is still processing (41 %); ask again when it is ready.');
    expect(notReadySentence([{ device: 'HX-200' }, { device: 'KL-9' }])).toBe('The HX-200 and KL-9 manuals are still processing; ask again when they are ready.');
  });
});

describe('a device named with its article keeps one (issue 33)', () => {
  it('never writes "the The"', () => {
    expect(unknownDeviceSentence(['The Quillon ZR-12'])).toBe('The manuals do not cover the Quillon ZR-12: no manual in the library mentions it.');
    expect(unknownDeviceSentence(['Quillon ZR-12', 'Harlo KP-7'])).toBe('The manuals do not cover the Quillon ZR-12 or the Harlo KP-7: no manual in the library mentions them.');
  });
});
