import { describe, expect, it } from 'vitest';
import { type PageLayout, type TextLine, type TextSpan, buildBlocks, buildLines, dedupeSpans, joinParagraph, layoutPage, RunningLines } from './layout';

/** A span as a PDF would place it: `top` is the box top, height ≈ 1.1 × size. */
const span = (text: string, x: number, top: number, size = 10, o: Partial<TextSpan> = {}): TextSpan => ({
  text,
  bbox: { x, y: top, w: text.length * size * 0.5, h: size * 1.1 },
  fontSize: size,
  bold: false,
  ...o,
});

const W = 600;
const texts = (lines: TextLine[]) => lines.map((l) => l.text);

describe('buildLines', () => {
  it('joins words on one baseline and inserts spaces from the gaps', () => {
    const lines = buildLines([span('Hello', 50, 100), span('world', 50 + 25 + 3, 100), span('again', 50, 115)], W);
    expect(texts(lines)).toEqual(['Hello world', 'again']);
  });

  it('does not merge words that touch (no gap, no space)', () => {
    const lines = buildLines([span('STM32', 50, 100), span('F072', 75, 100)], W);
    expect(texts(lines)).toEqual(['STM32F072']);
  });

  it('reads content-stream order that is scrambled in top-to-bottom, left-to-right order', () => {
    const lines = buildLines([span('third', 50, 130), span('first', 50, 100), span('second', 50, 115)], W);
    expect(texts(lines)).toEqual(['first', 'second', 'third']);
  });

  it('splits a row into cells at wide gaps', () => {
    const [line] = buildLines([span('Pin', 50, 100), span('Signal', 200, 100), span('Volt', 350, 100)], W);
    expect(line.cells.map((c) => c.text)).toEqual(['Pin', 'Signal', 'Volt']);
  });

  it('keeps a list marker set off by a tab with its text', () => {
    const [line] = buildLines([span('•', 50, 100), span('Check the fuse first', 80, 100)], W);
    expect(line.cells).toHaveLength(1);
    expect(line.text).toBe('• Check the fuse first');
  });

  it('drops the duplicate copy of fake-bold text', () => {
    const spans = [span('Warning', 50, 100), span('Warning', 50.4, 100.2), span('Warning', 50, 300)];
    expect(dedupeSpans(spans)).toHaveLength(2);
  });

  it('reads two prose columns column by column, full-width lines in place', () => {
    const spans: TextSpan[] = [span('Chapter 3 Installation and wiring of the controller board', 50, 60, 10)];
    for (let i = 0; i < 6; i++) {
      spans.push(span(`left column sentence number ${i} goes here`, 50, 100 + i * 14));
      spans.push(span(`right column sentence number ${i} goes here`, 320, 100 + i * 14));
    }
    spans.push(span('A full width footnote line that crosses the gutter of the page', 50, 200));
    const lines = buildLines(spans, W);
    expect(texts(lines)).toEqual([
      'Chapter 3 Installation and wiring of the controller board',
      ...Array.from({ length: 6 }, (_, i) => `left column sentence number ${i} goes here`),
      ...Array.from({ length: 6 }, (_, i) => `right column sentence number ${i} goes here`),
      'A full width footnote line that crosses the gutter of the page',
    ]);
    expect(lines[1].column).toBe(1);
    expect(lines[7].column).toBe(2);
  });

  it('reads a table with a gutter row by row (short cells are not prose columns)', () => {
    const spans: TextSpan[] = [];
    for (let i = 0; i < 6; i++) {
      spans.push(span(`PA${i}`, 60, 100 + i * 14));
      spans.push(span(`GPIO ${i}`, 360, 100 + i * 14));
    }
    const lines = buildLines(spans, W);
    expect(texts(lines)).toEqual(Array.from({ length: 6 }, (_, i) => `PA${i} GPIO ${i}`));
    expect(lines.every((l) => l.column === 0 && l.cells.length === 2)).toBe(true);
  });
});

describe('buildBlocks', () => {
  const layout = (spans: TextSpan[]) => layoutPage(1, W, 800, buildLines(spans, W));

  it('finds headings by size and by bold face, and groups paragraphs by gaps', () => {
    const page = layout([
      span('Specifications', 50, 60, 18, { bold: true }),
      span('The board accepts twelve to twenty four volts on the main input.', 50, 90),
      span('Reverse polarity is protected by a fuse on the input rail.', 50, 104),
      span('Electrical', 50, 130, 10, { bold: true }),
      span('Logic runs from a three volt regulator with low noise output.', 50, 150),
    ]);
    expect(page.blocks.map((b) => [b.kind, b.level ?? 0])).toEqual([
      ['heading', 1],
      ['paragraph', 0],
      ['heading', 2],
      ['paragraph', 0],
    ]);
    expect(page.headings.map((h) => h.text)).toEqual(['Specifications', 'Electrical']);
    expect(page.blocks[1].text).toBe(
      'The board accepts twelve to twenty four volts on the main input. Reverse polarity is protected by a fuse on the input rail.',
    );
  });

  it('does not take a bold paragraph for a heading', () => {
    const spans = [0, 1, 2, 3].map((i) => span(`Never open the case while the power supply is still connected ${i}`, 50, 100 + i * 14, 10, { bold: true }));
    spans.push(span('Normal text follows after the warning block here.', 50, 170));
    const page = layout(spans);
    expect(page.headings).toEqual([]);
  });

  it('treats bold as no signal when the body itself is bold', () => {
    const spans = [0, 1, 2, 3, 4, 5].map((i) => span(`All of this body text is set in a bold face ${i}`, 50, 100 + i * 14, 10, { bold: true }));
    spans.push(span('Short bold line', 50, 200, 10, { bold: true }));
    expect(layout(spans).headings).toEqual([]);
  });

  it('takes a numbered title in body size as a heading only when it stands apart', () => {
    const apart = layout([
      span('The motherboard is shown below in full detail with all sizes.', 50, 100),
      span('2. Motherboard Wiring Diagram', 50, 140),
      span('Connect the fans before powering up the board for the first time.', 50, 180),
    ]);
    expect(apart.headings.map((h) => h.text)).toEqual(['2. Motherboard Wiring Diagram']);
    const footnote = layout([span('Body text that runs over a full line of the page here.', 50, 100), span('1Work in progress', 50, 140)]);
    expect(footnote.headings).toEqual([]);
    const inList = layout([
      span('1. Remove the four screws on the back cover', 50, 100),
      span('2. Lift the cover and unplug the fan cable', 50, 113),
      span('3. Replace the fuse with the same rating', 50, 126),
    ]);
    expect(inList.headings).toEqual([]);
  });

  it('judges a numbered title by the text flow around it, not by figure labels just above it', () => {
    const lines = buildLines(
      [
        span('The drive socket pinout is shown in the figure below.', 50, 100),
        span('2. External high current drive connection', 50, 420),
        span('External drive interface:', 50, 520),
      ],
      W,
    );
    // Labels of the figure above, OCR'd, the last one just above the title (a table's last row).
    const label = (text: string, y: number): TextLine => ({
      text,
      bbox: { x: 60, y, w: 40, h: 9 },
      fontSize: 9.5,
      bold: false,
      cells: [{ text, bbox: { x: 60, y, w: 40, h: 9 } }],
      ocr: true,
      column: 0,
      region: 0,
    });
    const withLabels = [
      lines[0],
      ...[130, 142, 154, 166, 178, 190, 202, 214].map((y, i) => label(`1/${2 ** i} Step`, y)),
      label('High', 405),
      lines[1],
      lines[2],
    ];
    const headings = buildBlocks(withLabels)
      .filter((b) => b.kind === 'heading')
      .map((b) => b.text);
    expect(headings).toEqual(['2. External high current drive connection']);
  });

  it('keeps a wrapped heading as one heading', () => {
    const page = layout([
      span('Calibration of the receiver', 50, 60, 18, { bold: true }),
      span('and the reference paths', 50, 80, 18, { bold: true }),
      span('Body text explains each of the calibration steps in turn here.', 50, 110),
    ]);
    expect(page.headings.map((h) => h.text)).toEqual(['Calibration of the receiver and the reference paths']);
  });

  it('keeps aligned rows as one table block, with wrapped cells and no heading inside', () => {
    const spans: TextSpan[] = [span('Pin', 50, 100, 10, { bold: true }), span('Function', 200, 100, 10, { bold: true })];
    const rows = [
      ['1', 'VCC'],
      ['2', 'TX (OUT)'],
      ['3', 'RX (IN)'],
    ];
    rows.forEach(([a, b], i) => spans.push(span(a, 50, 116 + i * 28), span(b, 200, 116 + i * 28)));
    spans.push(span('continued text', 200, 130)); // wraps the cell of row 1
    spans.push(span('After the table a normal paragraph of text follows here.', 50, 220));
    const page = layout(spans);
    expect(page.blocks.map((b) => b.kind)).toEqual(['table', 'paragraph']);
    expect(page.blocks[0].text).toBe('Pin | Function\n1 | VCC\ncontinued text\n2 | TX (OUT)\n3 | RX (IN)');
  });

  it('turns OCR lines on a text page into one figure block per region', () => {
    const lines = buildLines([span('Wiring of the fan connectors is shown below.', 50, 100)], W);
    const ocr = (text: string, y: number, region: number): TextLine => ({
      text,
      bbox: { x: 60, y, w: 40, h: 8 },
      fontSize: 8,
      bold: false,
      cells: [{ text, bbox: { x: 60, y, w: 40, h: 8 } }],
      ocr: true,
      column: 0,
      region,
    });
    const blocks = buildBlocks([...lines, ocr('PA8', 130, 0), ocr('GND', 300, 0), ocr('+5V', 500, 1)]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ['paragraph', 'Wiring of the fan connectors is shown below.'],
      ['figure', 'PA8\nGND'],
      ['figure', '+5V'],
    ]);
  });
});

describe('joinParagraph', () => {
  it('undoes end-of-line hyphenation only between lowercase word parts', () => {
    expect(joinParagraph(['the measure-', 'ment range', 'is 50k-', '300MHz'])).toBe('the measurement range is 50k- 300MHz');
  });
});

describe('RunningLines', () => {
  /** Counted over all the pages, then each page marked. */
  const markRunningLines = (pages: PageLayout[]) => {
    const running = new RunningLines();
    for (const p of pages) running.add(p);
    return pages.map((p) => running.mark(p));
  };
  const page = (n: number, extra: string): PageLayout =>
    layoutPage(
      n,
      W,
      800,
      buildLines(
        [
          span('ACME Service Manual', 50, 20, 14, { bold: true }),
          span(`Body text of page ${n}: ${extra} with enough words to be a paragraph.`, 50, 300),
          span(`${n}`, 290, 770),
        ],
        W,
      ),
    );

  it('flags repeated headers and page numbers and rebuilds blocks without them', () => {
    const pages = [1, 2, 3, 4].map((n) => page(n, `topic ${n}`));
    // Before: the bold header looks like a heading on every page.
    expect(pages[0].headings.map((h) => h.text)).toContain('ACME Service Manual');
    const marked = markRunningLines(pages);
    for (const p of marked) {
      expect(p.headings).toEqual([]);
      expect(p.lines.filter((l) => l.running).map((l) => l.text)).toEqual(['ACME Service Manual', String(p.page)]);
      expect(p.blocks.map((b) => b.text)).toEqual([`Body text of page ${p.page}: topic ${p.page} with enough words to be a paragraph.`]);
    }
  });

  it('leaves a short document alone except for page numbers', () => {
    const marked = markRunningLines([page(1, 'a'), page(2, 'b')]);
    expect(marked[0].lines.filter((l) => l.running).map((l) => l.text)).toEqual(['1']);
  });
});
