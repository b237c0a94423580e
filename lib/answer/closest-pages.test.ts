import { describe, expect, it } from 'vitest';
import { closestPages } from './closest-pages';
import type { RefHit } from './hits';

const chunk = (ref: number, page: number, text: string, heading = 'Section 6 Maintenance > Tightening torques'): RefHit => ({
  ref,
  kind: 'chunk',
  manualId: 'm/1',
  manualTitle: 'Acme HX-200',
  page,
  chunkId: `m1:p${page}:c${ref}`,
  heading,
  text,
  ocr: false,
  bboxes: [],
  score: 1 / ref,
});

describe('closestPages', () => {
  it('keeps the first (best) passage of each page, at most 3 pages, with the link a citation opens', () => {
    const long = 'word '.repeat(80);
    const pages = closestPages([
      chunk(1, 7, 'X1 terminal   screws 0.6 Nm'),
      chunk(2, 7, 'second passage of page 7'),
      chunk(3, 3, long),
      chunk(4, 9, 'c'),
      chunk(5, 10, 'd'),
    ]);
    expect(pages.map((p) => p.page)).toEqual([7, 3, 9]);
    expect(pages[0]).toEqual({
      manualId: 'm/1',
      manualTitle: 'Acme HX-200',
      page: 7,
      heading: 'Tightening torques',
      snippet: 'X1 terminal screws 0.6 Nm',
      previewUrl: '/manuals/m%2F1?page=7&hl=m1%3Ap7%3Ac1',
    });
    expect(pages[1].snippet.length).toBeLessThanOrEqual(201);
    expect(pages[1].snippet.endsWith('…')).toBe(true);
  });

  it("keeps to the turn's device when the search found its pages, else shows what was found", () => {
    const other = (ref: number, page: number): RefHit => ({ ...chunk(ref, page, `other ${ref}`), manualId: 'm/2', chunkId: `m2:p${page}:c${ref}` });
    const hits = [other(1, 4), chunk(2, 7, 'own page 7'), other(3, 5), chunk(4, 2, 'own page 2')];
    expect(closestPages(hits, 3, ['m/1']).map((p) => [p.manualId, p.page])).toEqual([
      ['m/1', 7],
      ['m/1', 2],
    ]);
    expect(closestPages(hits, 3, ['m/3']).map((p) => p.manualId)).toEqual(['m/2', 'm/1', 'm/2']);
    expect(closestPages(hits).map((p) => p.manualId)).toEqual(['m/2', 'm/1', 'm/2']);
  });

  it('skips hits without text and gives nothing for no hits', () => {
    expect(closestPages([chunk(1, 2, '  ')])).toEqual([]);
    expect(closestPages([])).toEqual([]);
  });
});
