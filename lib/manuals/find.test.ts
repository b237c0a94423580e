import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../store/db';
import { createManual, replacePagesAndChunks, updateManual } from '../store/manuals';
import { findInManual } from './find';

const ID = 'find-test-manual';
const page = (number: number, text: string, ocrText: string | null = null) => ({
  number,
  width: 600,
  height: 800,
  text,
  ocr: ocrText !== null,
  ocrText,
  imagePath: null,
  thumbPath: null,
});
const box = (y: number) => ({ x: 50, y, w: 500, h: 12 });

beforeAll(async () => {
  await createManual({ id: ID, title: 'Find test', fileName: 'find.pdf', sha256: ID.padEnd(64, '0'), sizeBytes: 1 });
  await updateManual(ID, { status: 'ready', pageCount: 3 });
  await replacePagesAndChunks(
    ID,
    [
      page(1, 'Acme ZX-9 Pump\nInstallation manual'),
      page(2, 'Supply voltage | 24 V DC\nInput current | 2 A at 24V\nRunning head 24 V'),
      page(3, 'Rating plate', 'RATED 24 V\u2013DC'),
    ],
    [
      // Two chunks that overlap by one line: that line counts once.
      {
        id: `${ID}:p2:c0`,
        manualId: ID,
        page: 2,
        heading: 'Specs',
        text: 'Supply voltage | 24 V DC\nInput current | 2 A at 24V',
        ocr: false,
        bboxes: [box(100), box(120)],
      },
      { id: `${ID}:p2:c1`, manualId: ID, page: 2, heading: 'Specs', text: 'Input current | 2 A at 24V', ocr: false, bboxes: [box(120)] },
    ],
  );
});

afterAll(() => closeDb());

describe('find in a manual', () => {
  it('finds a number with or without the space before its unit, case-insensitively, in page order', async () => {
    const found = (await findInManual(ID, '24 v'))!;
    expect(found.matches.map((m) => m.page)).toEqual([2, 2, 2, 3]);
    expect(found.total).toBe(4);
    const [first, second, third, fourth] = found.matches;
    expect(first).toMatchObject({ before: 'Supply voltage | ', match: '24 V', after: ' DC' });
    // Boxed inside its line, in proportion to its characters.
    expect(first.line).toEqual(box(100));
    expect(first.box!.value).toBe('24 V');
    expect(first.box!.x).toBeGreaterThan(50);
    expect(first.box!.x + first.box!.w).toBeLessThan(550);
    expect(second).toMatchObject({ match: '24V', line: box(120) });
    // A running head the chunks leave out still counts, without a box.
    expect(third.line).toBeUndefined();
    expect(third.match).toBe('24 V');
    // OCR text, with an en dash read as a hyphen.
    expect(fourth).toMatchObject({ page: 3, match: '24 V' });
    expect((await findInManual(ID, '24 V-dc'))!.matches.map((m) => m.page)).toEqual([3]);
  });

  it('finds words across line breaks, and nothing for an absent word or an unknown manual', async () => {
    expect((await findInManual(ID, 'pump installation'))!.matches).toMatchObject([{ page: 1 }]);
    expect((await findInManual(ID, 'torque'))!).toMatchObject({ total: 0, matches: [] });
    expect(await findInManual('no-such-manual', '24 V')).toBeNull();
  });
});

describe('a paragraph whose lines were joined into one', () => {
  it('places the match on the line that holds its share of the text', async () => {
    const id = 'find-test-paragraph';
    await createManual({ id, title: 'Paragraph', fileName: 'p.pdf', sha256: id.padEnd(64, '0'), sizeBytes: 1 });
    const lineText = ['Open valve V3 slowly', 'and wait until the gauge', 'reads zero before work.'];
    const text = lineText.join(' ');
    const boxes = lineText.map((l, i) => ({ x: 50, y: 100 + 14 * i, w: l.length * 5, h: 12 }));
    await replacePagesAndChunks(
      id,
      [page(1, text)],
      [{ id: `${id}:p1:c0`, manualId: id, page: 1, heading: '', text: `Safety\n${text}`, ocr: false, bboxes: [{ x: 50, y: 80, w: 30, h: 12 }, ...boxes] }],
    );
    const [m] = (await findInManual(id, 'gauge'))!.matches;
    expect(m.line).toEqual(boxes[1]);
    expect(m.box!.x).toBeGreaterThan(50);
    expect(m.box!.x + m.box!.w).toBeLessThanOrEqual(50 + boxes[1].w);
  });
});
