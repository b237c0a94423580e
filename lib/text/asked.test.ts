import { describe, expect, it } from 'vitest';
import { askedSpan } from './asked';

describe('askedSpan', () => {
  it('takes the run of content words after the question word', () => {
    expect(askedSpan('What is the analog -3 dB bandwidth of the scope input channels?')).toBe('analog -3 dB bandwidth');
    expect(askedSpan('What supply voltage should I feed the drive?')).toBe('supply voltage');
    expect(askedSpan('How much current does the board draw?')).toBe('current');
    expect(askedSpan("What's the maximum VGA resolution the board can output?")).toBe('maximum VGA resolution');
  });
  it('is undefined when the question asks for no named thing', () => {
    expect(askedSpan('Walk me through calibrating the reflection port.')).toBeUndefined();
  });
});
