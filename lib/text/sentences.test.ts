import { describe, expect, it } from 'vitest';
import { citedRefs, splitSentences, stripCitations } from './sentences';

describe('sentences and citations', () => {
  it('splits sentences without breaking abbreviations, decimals or citations', () => {
    expect(splitSentences('See Fig. 3 for the layout. The rail is 3.3 V [2]. Next.\n- item one\n- item two')).toEqual([
      'See Fig. 3 for the layout.',
      'The rail is 3.3 V [2].',
      'Next.',
      '- item one',
      '- item two',
    ]);
    // a citation after the full stop belongs to the sentence before it
    expect(splitSentences('The fuse is 2 A. [1] Replace it with the same type [1][3].')).toEqual([
      'The fuse is 2 A. [1]',
      'Replace it with the same type [1][3].',
    ]);
  });

  it('does not end a sentence at a range or an ellipsis', () => {
    expect(splitSentences('It converts -512 mV .. +512 mV into values 0x00 .. 0xFF. Hantek made it so.')).toEqual([
      'It converts -512 mV .. +512 mV into values 0x00 .. 0xFF.',
      'Hantek made it so.',
    ]);
  });

  it('reads citations, including grouped ones', () => {
    expect(citedRefs('A [1]. B [2, 3]. C [1].')).toEqual([1, 2, 3]);
    expect(stripCitations('Value is 5 V [4].')).toBe('Value is 5 V.');
  });
});
