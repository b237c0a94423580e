import { describe, expect, it } from 'vitest';
import { numberCitations, renumberText, sourceLabel, StreamedCitations } from './citations';

const src = (ref: number, page: number, heading = 'Electrical data', manualId = 'm1') => ({ ref, manualId, page, heading, bboxes: [{ ref }] });

describe('citation numbers', () => {
  it('numbers citations 1..n by first use and orders the sources so', () => {
    const out = numberCitations('The supply is 24 V DC [7]. The fuse is 2 A [3, 7]. See also [12].', [src(3, 4), src(7, 2), src(12, 9)]);
    expect(out.text).toBe('The supply is 24 V DC [1]. The fuse is 2 A [2, 1]. See also [3].');
    expect(out.sources.map((s) => [s.ref, s.page])).toEqual([
      [1, 2],
      [2, 4],
      [3, 9],
    ]);
    // Running it again changes nothing.
    const again = numberCitations(out.text, out.sources);
    expect(again.text).toBe(out.text);
    expect(again.sources).toEqual(out.sources);
  });

  it('gives passages of one section of one page one number (one chip)', () => {
    const out = numberCitations('A [4]. B [9]. C [5].', [src(4, 2), src(9, 2), src(5, 3)]);
    expect(out.text).toBe('A [1]. B [1]. C [2].');
    expect(out.sources.map((s) => s.ref)).toEqual([1, 2]);
    expect(out.sources[0].bboxes).toEqual([{ ref: 4 }, { ref: 9 }]);
    expect(numberCitations('A [4, 9].', [src(4, 2), src(9, 2)]).text).toBe('A [1].');
    // Another section of the page, or another manual, is another source.
    expect(numberCitations('A [4]. B [9].', [src(4, 2), src(9, 2, 'Fuses')]).sources).toHaveLength(2);
    expect(numberCitations('A [4]. B [9].', [src(4, 2), src(9, 2, 'Electrical data', 'm2')]).sources).toHaveLength(2);
  });

  it('drops markers that point at no source, keeps the text when there are no sources', () => {
    expect(numberCitations('A [4]. B [8].', [src(4, 2)]).text).toBe('A [1]. B.');
    expect(numberCitations('A [4].', []).text).toBe('A [4].');
    expect(renumberText('A [4, 8].', new Map([[4, 1]]))).toBe('A [1].');
  });
});

describe('streamed citation numbers', () => {
  const text = 'The supply is 24 V DC [7]. The fuse is 2 A [3, 7]. A [4]. B [9]. Gone [8]. See also [12].';
  const sources = [src(3, 4), src(7, 2), src(12, 9), src(4, 5), src(9, 5)];
  const stream = (deltas: string[]) => {
    const s = new StreamedCitations((ref) => sources.find((x) => x.ref === ref));
    return deltas.map((d) => s.push(d)).join('') + s.flush();
  };

  it('shows the numbers the finished answer gets, wherever the deltas split a marker', () => {
    const final = numberCitations(text, sources).text;
    expect(stream([text])).toBe(final);
    for (let cut = 1; cut < text.length; cut++) expect(stream([text.slice(0, cut), text.slice(cut)])).toBe(final);
    // character by character, as a model may stream it
    expect(stream([...text])).toBe(final);
  });

  it('holds back only an unfinished marker, and gives it back at the end', () => {
    const s = new StreamedCitations((ref) => sources.find((x) => x.ref === ref));
    expect(s.push('The fuse is 2 A [3')).toBe('The fuse is 2 A');
    expect(s.push(']. Next')).toBe(' [1]. Next');
    expect(s.push(' [')).toBe('');
    expect(s.flush()).toBe(' [');
  });
});

describe('source labels', () => {
  it('is the innermost heading that reads like a section title', () => {
    expect(sourceLabel('Installation > Electrical data')).toBe('Electrical data');
    expect(sourceLabel('4.2 Charging')).toBe('4.2 Charging');
    expect(sourceLabel('Battery pack > B+ B- B17 B16 B15')).toBe('Battery pack');
  });

  it('is none for figure labels, so the chip reads "p. N"', () => {
    expect(sourceLabel('B+ … B17 B16 B15 B14')).toBeUndefined();
    expect(sourceLabel('LED1 LED2 ON OFF')).toBeUndefined();
    expect(sourceLabel('')).toBeUndefined();
    expect(sourceLabel(undefined)).toBeUndefined();
  });
});
