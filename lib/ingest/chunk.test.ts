import type { BBox } from '@/lib/providers/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateLargeManual } from '@/lib/sample/large';
import { type Chunk, DEFAULT_CHUNK_OPTIONS, ManualChunker, chunkPages, estimateTokens, headingNumber } from './chunk';
import { type TextLine, layoutPage } from './layout';
import { type PageContent, openPdf } from './pdf';
import { HEADER, PAGE_H, PAGE_W, type SampleTruth, buildSampleManual } from './testing/sample-manual';

/** True if `inner` lies inside `outer`, allowing `tol` points of slack on every side. */
function contains(outer: BBox, inner: BBox, tol = 0.5): boolean {
  return inner.x >= outer.x - tol && inner.y >= outer.y - tol && inner.x + inner.w <= outer.x + outer.w + tol && inner.y + inner.h <= outer.y + outer.h + tol;
}

const { maxTokens, minTokens } = DEFAULT_CHUNK_OPTIONS;

let truth: SampleTruth;
let pages: PageContent[];
let chunks: Chunk[];

beforeAll(async () => {
  const sample = await buildSampleManual();
  truth = sample.truth;
  const doc = await openPdf(sample.bytes);
  pages = [];
  for (let n = 1; n <= doc.numPages; n++) pages.push(await doc.extractPage(n));
  await doc.close();
  chunks = chunkPages('man-1', pages);
});

const byHeading = (h: string) => chunks.filter((c) => c.heading === h);

describe('chunkPages on the generated manual', () => {
  it('gives stable ids counted per page', () => {
    for (const page of new Set(chunks.map((c) => c.page))) {
      const ids = chunks.filter((c) => c.page === page).map((c) => c.id);
      expect(ids).toEqual(ids.map((_, i) => `man-1:p${page}:c${i}`));
    }
    expect(chunkPages('man-1', pages).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
  });

  it('assigns heading paths from the section structure', () => {
    expect([...new Set(chunks.map((c) => c.heading))]).toEqual([
      '1 Specifications',
      '1 Specifications > 1.1 Electrical',
      '1 Specifications > 1.2 Mechanical',
      '2 Troubleshooting > 2.1 Error codes',
      '3 Wiring',
    ]);
    expect(byHeading('1 Specifications')[0].text.startsWith('1 Specifications\nThe overview step 1')).toBe(true);
    // "2 Troubleshooting" has no text of its own, so it opens the chunk of its first subsection.
    expect(byHeading('2 Troubleshooting > 2.1 Error codes')[0].text.startsWith('2 Troubleshooting\n2.1 Error codes\n')).toBe(true);
  });

  it('keeps every line box inside its section on its page', () => {
    for (const c of chunks) {
      const drawn = truth.lines.filter((l) => l.page === c.page && l.kind !== 'running' && (l.path === c.heading || c.heading.startsWith(l.path + ' > ')));
      const top = Math.min(...drawn.map((l) => l.baseline - l.size));
      const bottom = Math.max(...drawn.map((l) => l.baseline + l.size * 0.4));
      expect(c.bboxes.length).toBeGreaterThan(0);
      for (const b of c.bboxes) {
        expect(contains({ x: 0, y: top, w: PAGE_W, h: bottom - top }, b), `${c.id} box ${JSON.stringify(b)} in ${top}…${bottom}`).toBe(true);
        expect(contains({ x: 0, y: 0, w: PAGE_W, h: PAGE_H }, b)).toBe(true);
      }
    }
  });

  it('never mixes pages: each chunk box is a line of its own page', () => {
    for (const c of chunks) {
      const lineBoxes = pages[c.page - 1].lines.map((l) => l.bbox);
      for (const b of c.bboxes) expect(lineBoxes.some((l) => Math.abs(l.x - b.x) < 0.01 && Math.abs(l.y - b.y) < 0.01)).toBe(true);
    }
    // Page 2 text never shows up in a page 1 chunk.
    expect(chunks.filter((c) => c.page === 1).some((c) => c.text.includes('fault0'))).toBe(false);
  });

  it('drops the running header and page numbers', () => {
    for (const c of chunks) {
      expect(c.text).not.toContain(HEADER);
      expect(c.text).not.toMatch(/^Page \d+$/m);
    }
  });

  it('keeps sizes in range: ≤ max always, ≥ min unless the chunk ends a section or page', () => {
    for (const c of chunks) {
      expect(c.tokens).toBe(estimateTokens(c.text));
      expect(c.tokens).toBeLessThanOrEqual(maxTokens);
    }
    const long = byHeading('2 Troubleshooting > 2.1 Error codes');
    expect(long.length).toBeGreaterThanOrEqual(2);
    for (const c of long.slice(0, -1)) expect(c.tokens).toBeGreaterThanOrEqual(minTokens);
  });

  it('overlaps consecutive chunks of a split section by a line or two', () => {
    const long = byHeading('2 Troubleshooting > 2.1 Error codes');
    for (let i = 1; i < long.length; i++) {
      const prev = long[i - 1],
        cur = long[i];
      const shared = cur.bboxes.filter((b) => prev.bboxes.some((p) => p.x === b.x && p.y === b.y));
      expect(shared.length).toBeGreaterThanOrEqual(1);
      expect(shared.length).toBeLessThanOrEqual(2);
      // The shared lines are the end of the previous chunk and the start of this one.
      expect(cur.bboxes.slice(0, shared.length)).toEqual(prev.bboxes.slice(-shared.length));
    }
  });

  it('keeps the table whole in its section chunk', () => {
    const table = truth.table.rows.map((r) => r.join(' | ')).join('\n');
    const holders = chunks.filter((c) => c.text.includes(table));
    expect(holders).toHaveLength(1);
    expect(holders[0].heading).toBe('1 Specifications > 1.1 Electrical');
  });

  it('orders two-column text column by column and marks nothing as OCR', () => {
    const wiring = byHeading('3 Wiring');
    const text = wiring.map((c) => c.text).join('\n');
    expect(text.indexOf('Left column line 8')).toBeLessThan(text.indexOf('Right column line 1'));
    expect(chunks.every((c) => !c.ocr)).toBe(true);
  });

  it('makes no chunk for a page without text', () => {
    expect(chunks.some((c) => c.page === truth.scannedPage)).toBe(false);
  });
});

describe('chunkPages with synthetic layouts', () => {
  const line = (text: string, y: number, o: Partial<TextLine> = {}): TextLine => {
    const bbox = { x: 50, y, w: 400, h: 11 };
    return { text, bbox, fontSize: 10, bold: false, cells: [{ text, bbox }], ocr: false, column: 0, ...o };
  };

  it('splits a long table between rows and repeats the header row', () => {
    const row = (cells: string[], y: number): TextLine => {
      const l = line(cells.join(' '), y);
      return { ...l, cells: cells.map((t, i) => ({ text: t, bbox: { x: 50 + i * 150, y, w: 60, h: 11 } })) };
    };
    const lines = [row(['Code', 'Meaning', 'Action'], 100)];
    for (let i = 0; i < 30; i++) lines.push(row([`E${100 + i}`, `Sensor ${i} reading out of range`, `Replace sensor ${i}`], 114 + i * 14));
    const chunksOf = chunkPages('t', [layoutPage(1, 600, 800, lines)], { maxTokens: 120, minTokens: 40 });
    expect(chunksOf.length).toBeGreaterThan(2);
    for (const c of chunksOf) {
      expect(c.text.split('\n')[0]).toBe('Code | Meaning | Action');
      expect(c.tokens).toBeLessThanOrEqual(120);
    }
    const rows = chunksOf.flatMap((c) => c.text.split('\n').slice(1));
    expect(rows).toEqual(Array.from({ length: 30 }, (_, i) => `E${100 + i} | Sensor ${i} reading out of range | Replace sensor ${i}`));
  });

  it('flags chunks holding OCR text and carries the heading path across pages', () => {
    const p1 = layoutPage(1, 600, 800, [
      line('Connectors', 60, { fontSize: 18, bold: true, cells: [{ text: 'Connectors', bbox: { x: 50, y: 60, w: 100, h: 20 } }] }),
      line('The pin assignment is printed on the board and in the figure.', 100),
    ]);
    const ocrLine = line('PA8 GND +5V', 120, { ocr: true });
    const p2 = layoutPage(2, 600, 800, [ocrLine]);
    const out = chunkPages('t', [p1, p2]);
    expect(out.map((c) => [c.id, c.heading, c.ocr])).toEqual([
      ['t:p1:c0', 'Connectors', false],
      ['t:p2:c0', 'Connectors', true],
    ]);
  });

  it('nests headings by outline number before size and weight', () => {
    const heading = (text: string, y: number, fontSize: number, bold: boolean) =>
      line(text, y, { fontSize, bold, cells: [{ text, bbox: { x: 50, y, w: 200, h: fontSize } }], bbox: { x: 50, y, w: 200, h: fontSize } });
    const body = (y: number) => line('Body text of this section, long enough to be a paragraph on its own.', y);
    const page = layoutPage(1, 600, 900, [
      heading('IV. Interface Instruction', 40, 21.5, true),
      body(80),
      heading('2. Wiring Diagram', 120, 12, true),
      body(150),
      heading('3. Sensorless Homing', 190, 11, false),
      body(220), // a word processor's smaller sibling
      heading('3.1 Jumper caps', 260, 11, false),
      body(290),
      heading('V. Firmware', 330, 18, true),
      body(370), // one level up despite the smaller type
    ]);
    expect(chunkPages('t', [page]).map((c) => c.heading)).toEqual([
      'IV. Interface Instruction',
      'IV. Interface Instruction > 2. Wiring Diagram',
      'IV. Interface Instruction > 3. Sensorless Homing',
      'IV. Interface Instruction > 3. Sensorless Homing > 3.1 Jumper caps',
      'V. Firmware',
    ]);
  });

  it('splits one enormous line at word boundaries', () => {
    const words = Array.from({ length: 900 }, (_, i) => `w${i}`).join(' ');
    const out = chunkPages('t', [layoutPage(1, 600, 800, [line(words, 100)])]);
    expect(out.length).toBeGreaterThan(2);
    expect(out.every((c) => c.tokens <= maxTokens)).toBe(true);
    expect(
      out
        .map((c) => c.text)
        .join(' ')
        .split(' ')
        .filter((w) => w === 'w899'),
    ).toHaveLength(1);
  });
});

describe('ManualChunker', () => {
  it('cuts a manual range by range into exactly the chunks of cutting it whole', async () => {
    // Generated pages with a cover, a running header on every page and sections running on across pages.
    const doc = await openPdf(await generateLargeManual({ pages: 45, scannedEvery: 100, seed: 3 }));
    const long: PageContent[] = [];
    for (let n = 1; n <= doc.numPages; n++) long.push(await doc.extractPage(n));
    await doc.close();
    const whole = chunkPages('m', long);
    // Not a vacuous comparison: the header repeats on every page but is in no chunk (counted over
    // the whole manual, not a range), and headings open on one page go on over the next ones.
    expect(long.every((p) => p.text.includes('GENERATED SERVICE MANUAL'))).toBe(true);
    expect(whole.some((c) => c.text.includes('GENERATED SERVICE MANUAL'))).toBe(false);
    // (A chapter heading opens pages 1, 21 and 41 only.)
    expect(whole.filter((c) => c.page % 20 !== 1 && c.heading.startsWith('Chapter ')).length).toBeGreaterThan(30);
    for (const size of [1, 7, 16]) {
      const chunker = ManualChunker.over('m', long);
      const ranged: Chunk[] = [];
      for (let i = 0; i < long.length; i += size) ranged.push(...chunker.chunk(long.slice(i, i + size)));
      expect(ranged, `ranges of ${size} pages`).toEqual(whole);
    }
  }, 60_000);
});

describe('headingNumber', () => {
  it.each([
    ['3.2.1 Signals', 'arabic', [3, 2, 1]],
    ['1. Motherboard', 'arabic', [1]],
    ['IV. Interface', 'roman', [4]],
    ['Ⅲ. Communication', 'roman', [3]],
    ['Ⅴ ．Reset button', 'roman', [5]],
    ['Telemetry Port', 'none', []],
    ['2019 revision', 'none', []],
  ] as const)('%s', (text, scheme, parts) => {
    expect(headingNumber(text)).toEqual({ scheme, parts });
  });
});

describe('estimateTokens', () => {
  it('uses words × 1.3 for prose and chars / 4 for dense text', () => {
    expect(estimateTokens('one two three four five six seven eight nine ten')).toBe(13);
    expect(estimateTokens('0x1F2E3D4C5B6A79880x1F2E3D4C5B6A7988')).toBe(9);
    expect(estimateTokens('')).toBe(0);
  });
});
