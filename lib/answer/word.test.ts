import { describe, expect, it } from 'vitest';
import {
  closestPagesSentence,
  DECLINE_OPENING,
  declineSentence,
  isDecline,
  namingManual,
  notReadySentence,
  stillProcessingSentence,
  uncoveredVariantSentence,
  unknownDeviceSentence,
} from './word';

describe('declineSentence and closestPagesSentence', () => {
  it('are fixed, whole sentences that name what was looked for', () => {
    expect(declineSentence('What holding torque does the motor have?')).toBe(
      'The manuals do not say: I found no passage giving the holding torque in the manuals searched.',
    );
    expect(declineSentence('Walk me through the calibration.')).toBe(
      'The manuals do not say: I found no passage in the manuals searched that answers this question.',
    );
    expect(closestPagesSentence('What holding torque does the motor have?')).toBe(
      'I could not find a stated value for the holding torque; these pages are the closest match.',
    );
    expect(closestPagesSentence('Walk me through the calibration.')).toBe(
      'I could not find a passage that answers this question; these pages are the closest match.',
    );
  });
});

describe('not covered and not ready', () => {
  it('names the variants the manuals list, and a manual still processing with its progress', () => {
    expect(uncoveredVariantSentence([{ asked: 'QX-40C', listed: ['QX-40A', 'QX-40B'] }])).toBe(
      'The manuals do not cover the QX-40C: they list the QX-40A and QX-40B but not the QX-40C.',
    );
    expect(notReadySentence([{ device: 'HX-200', percent: 41 }])).toBe('The HX-200 manual is still processing (41 %); ask again when it is ready.');
    expect(notReadySentence([{ device: 'HX-200' }, { device: 'KL-9' }])).toBe(
      'The HX-200 and KL-9 manuals are still processing; ask again when they are ready.',
    );
  });

  it('says an answer from a manual still processing may be incomplete, with how far it is searchable', () => {
    expect(stillProcessingSentence([{ title: 'Acme HX-200 Manual', searchablePages: 40, pageCount: 120 }])).toBe(
      '“Acme HX-200 Manual” (searchable through page 40 of 120) is still processing; this answer may be incomplete.',
    );
    expect(
      stillProcessingSentence([
        { title: 'A', searchablePages: 3, pageCount: null },
        { title: 'B', searchablePages: 9, pageCount: 10 },
      ]),
    ).toBe('“A” and “B” (searchable through page 9 of 10) are still processing; this answer may be incomplete.');
  });
});

describe('a device named with its article keeps one', () => {
  it('never writes "the The"', () => {
    expect(unknownDeviceSentence(['The Quillon ZR-12'])).toBe('The manuals do not cover the Quillon ZR-12: no manual in the library mentions it.');
    expect(unknownDeviceSentence(['Quillon ZR-12', 'Harlo KP-7'])).toBe(
      'The manuals do not cover the Quillon ZR-12 or the Harlo KP-7: no manual in the library mentions them.',
    );
  });
});

describe('the decline opening', () => {
  it('opens every decline, and a model reply opening with it or a close variant reads as one', () => {
    expect(declineSentence('What holding torque does the motor have?').startsWith(DECLINE_OPENING)).toBe(true);
    expect(isDecline(`${DECLINE_OPENING} which fuse fits.`)).toBe(true);
    expect(isDecline('  The manual does not mention the DP832.')).toBe(true);
    expect(isDecline('The fuse is rated 2 A; the manuals do not say more.')).toBe(false);
  });
});

describe('namingManual', () => {
  it('names the cited manual first unless the answer already opens with it', () => {
    expect(namingManual('The fuse is rated 2 A [1].', 'HX-200 controller')).toBe('HX-200 controller: The fuse is rated 2 A [1].');
    expect(namingManual('The HX-200 controller takes a 2 A fuse [1].', 'HX-200 controller')).toBe('The HX-200 controller takes a 2 A fuse [1].');
    expect(namingManual('The fuse is rated 2 A [1].', undefined)).toBe('The fuse is rated 2 A [1].');
  });
});
