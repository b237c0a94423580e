/**
 * The structure reader over the generated structure manual (lib/sample/testing/tables.ts), whose
 * every cell, step, value and code is known: its PDF goes through the real parser and the real
 * structure reader; each question is built from a truth cell's own labels, and the answer must be
 * that cell with both labels, boxed at its place on the page. Reading accuracy = truth cells
 * answered with their value over all truth cells.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateStructureManual, type StructureManual } from '@/lib/sample/testing/tables';
import { readPdfPages } from '@/lib/ingest/testing/pages';
import { readManualStructure, type StructureUnit } from '@/lib/ingest/structure';
import { extractiveAnswer } from './extractive';
import type { RefHit } from './hits';
import { readQuestion } from './select';
import { anchorQuotes, readStructure, unitsForPrompt, type PageUnit } from './structured';

const MANUAL = 'm-structure';
let manual: StructureManual;
let units: StructureUnit[];

/** The units covering `page`, as the store hands them to the answer stage. */
function unitsOf(page: number): PageUnit[] {
  return units
    .filter((u) => u.regions.some((r) => r.page === page))
    .map(({ kind, regions, heading, text, ocr, page: _first, ...data }) => ({
      manualId: MANUAL,
      page,
      kind,
      regions,
      heading: heading ?? '',
      text,
      ocr,
      data,
    }));
}

/** One passage per page (its units' text), the asked page first: what a search returns. */
function hitsFor(first: number): RefHit[] {
  const order = [first, ...Array.from({ length: manual.truth.pageCount }, (_, i) => i + 1).filter((p) => p !== first)];
  return order.map((page, i) => ({
    kind: 'chunk',
    ref: i + 1,
    manualId: MANUAL,
    manualTitle: 'Orvik CC-4 Chamber Controller – Technical Reference',
    page,
    chunkId: `c${page}`,
    heading: '',
    text: unitsOf(page)
      .map((u) => u.text)
      .join('\n'),
    ocr: false,
    bboxes: [],
    score: 1 - i / 10,
  }));
}

function read(question: string, page: number) {
  const hits = hitsFor(page);
  const reading = readQuestion(question, hits)!;
  return readStructure(reading, [page, ...[1, 2, 3, 4, 5, 6].filter((p) => p !== page)].slice(0, 3).flatMap(unitsOf));
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');

beforeAll(async () => {
  manual = await generateStructureManual();
  units = readManualStructure(await readPdfPages(manual.pdf));
});

describe('reading a table cell', () => {
  it('answers a question built from a cell’s row and column labels with that cell, both labels and its box', () => {
    const misses: string[] = [];
    let total = 0;
    for (const table of manual.truth.tables) {
      for (const cell of table.cells) {
        if (cell.value === '–') continue;
        total++;
        const question = `What is the ${cell.column.filter(Boolean).join(' ')} for ${cell.row}?`;
        const got = read(question, cell.page);
        const ok = got && (got.kind === 'cell' || got.kind === 'row') && norm(got.text).includes(norm(cell.value)) && norm(got.text).includes(norm(cell.row));
        if (!ok) misses.push(`${question} → ${got?.text ?? '(none)'} [want ${cell.value}]`);
      }
    }
    // Every miss is listed for the reader of a failure; the share read is the figure.
    expect((total - misses.length) / total, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('boxes the cell read inside its table region on its page', () => {
    const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells.find((c) => c.column.join(' ').startsWith('Fuse'))!;
    const got = read(`What is the ${cell.column.join(' ')} for ${cell.row}?`, cell.page)!;
    expect(got.kind).toBe('cell');
    const [x0, y0, x1, y1] = got.regions[0].bbox;
    const v = got.valueBoxes[0];
    expect(v.value).toBe(cell.value);
    expect(v.x >= x0 && v.y >= y0 && v.x + v.w <= x1 + 0.5 && v.y + v.h <= y1 + 0.5).toBe(true);
  });

  it('reads a label cut short ("Max") as the word the question writes out', () => {
    const table = manual.truth.tables.find((t) => t.id === 'rated-outputs')!;
    const cell = table.cells.find((c) => c.column.at(-1) === 'Max' && c.value !== '–')!;
    const [group] = cell.column;
    const got = read(`What is the maximum ${cell.row.replace(/\s*\(.*\)/, '')} of the ${group}?`, cell.page)!;
    expect(got.kind).toBe('cell');
    expect(got.valueBoxes.map((b) => b.value)).toEqual([cell.value]);
  });

  it('answers a two-part question with two cells of one row, or of one column', () => {
    const rated = manual.truth.tables.find((t) => t.id === 'rated-outputs')!;
    const [min, max] = rated.cells.filter((c) => c.row === rated.rows[0] && c.column[0] === rated.cells[0].column[0]);
    const byRow = read(`What are the minimum and the maximum ${min.row.replace(/\s*\(.*\)/, '')} of the ${min.column[0]}?`, min.page)!;
    expect(byRow.valueBoxes.map((b) => b.value)).toEqual([min.value, max.value]);

    const models = manual.truth.tables.find((t) => t.id === 'models')!;
    const model = models.cells[models.cells.length - 1].column.at(-1)!;
    const [a, b] = models.cells.filter((c) => c.column.at(-1) === model);
    const byColumn = read(`What ${a.row.toLowerCase()} and ${b.row.toLowerCase()} does the ${model} have?`, a.page)!;
    expect(byColumn.valueBoxes.map((v) => v.value)).toEqual([a.value, b.value]);
    expect(norm(byColumn.text)).toContain(norm(model));
  });

  it('never reads a row whose label contradicts the question', () => {
    // Ask for a row label the table does not have: no cell of another row may answer.
    const got = read('What is the Max voltage of the fan circuit for the Nonexistent variant?', 1);
    if (got?.kind === 'cell') expect(norm(got.text)).toContain(norm('Voltage (V)'));
  });
});

describe('reading codes, values and procedures', () => {
  it('answers a code with its entry', () => {
    for (const { code, meaning, page } of manual.truth.codes) {
      const got = read(`What does ${code} mean?`, page);
      expect(norm(got?.text ?? ''), code).toContain(norm(meaning));
    }
  });

  it('answers a labelled value by its key', () => {
    const hits = manual.truth.labelledValues.filter(({ key, value, page }) => norm(read(`What is the ${key}?`, page)?.text ?? '').includes(norm(value)));
    expect(hits.length).toBeGreaterThanOrEqual(manual.truth.labelledValues.length - 1);
  });

  it('answers "how do I" with the whole procedure, to its last step across the page break', () => {
    const proc = manual.truth.procedures[0];
    const task = proc.heading.replace(/^[\d.]+\s*/, '').toLowerCase();
    const got = read(`How do I do the ${task}?`, proc.pages[0])!;
    expect(got.kind).toBe('procedure');
    for (const step of proc.steps) expect(norm(got.text)).toContain(norm(step).slice(0, 30));
    expect(got.regions.map((r) => r.page)).toEqual(proc.pages);
  });
});

describe('the offline answer with units', () => {
  it('states the cell read, cited, with its evidence region', () => {
    const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells.find((c) => c.column.join(' ').startsWith('Power'))!;
    const question = `What is the ${cell.column.join(' ')} for ${cell.row}?`;
    const answer = extractiveAnswer(question, hitsFor(cell.page), { units: unitsOf(cell.page) });
    expect(answer.mode).toBe('answer');
    expect(answer.text).toContain(cell.value);
    expect(answer.text).toMatch(/\[1\]\.?$/);
    expect(answer.evidence.structure).toBe('cell');
    expect(answer.evidence.regions?.[0]).toMatchObject({ manualId: MANUAL, page: cell.page, kind: 'table' });
  });

  it('without units, answers as before from the passages', () => {
    const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells[0];
    const answer = extractiveAnswer(`What is the ${cell.column.join(' ')} for ${cell.row}?`, hitsFor(cell.page));
    expect(answer.structure).toBeUndefined();
    expect(answer.evidence.structure).toBeUndefined();
  });
});

describe('the units as an LLM reads them', () => {
  it('gives a table as a grid under its headers, a procedure whole, each under its source number', () => {
    const table = manual.truth.tables.find((t) => t.id === 'variants')!;
    const lines = unitsForPrompt([...unitsOf(1), ...unitsOf(5), ...unitsOf(6)], (_m, page) => page * 10);
    const grid = lines.find((l) => l.includes(table.rows[1]))!;
    expect(grid.startsWith('[10] p.1')).toBe(true);
    // The row's cells in the header's order, one grid row.
    const row = grid.split('\n').find((l) => l.includes(table.rows[1]))!;
    const cells = table.cells.filter((c) => c.row === table.rows[1]).map((c) => c.value);
    expect(
      row
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual([table.rows[1], ...cells]);
    const steps = manual.truth.procedures[0].steps;
    const procedure = lines.find((l) => l.includes('procedure:'))!;
    expect(procedure.split('\n').filter((l) => /^\d+\./.test(l))).toHaveLength(steps.length);
  });
});

describe('quotes placed in their units', () => {
  it('a "how do I" answer whose quotes are steps becomes the whole procedure, to its last step overleaf', () => {
    const proc = manual.truth.procedures[0];
    const hits = hitsFor(proc.pages[0]);
    const answer = extractiveAnswer('How do I replace the air filter?', hits, { units: [...unitsOf(proc.pages[0]), ...unitsOf(proc.pages[1])] });
    expect(answer.mode).toBe('answer');
    expect(answer.evidence.structure).toBe('procedure');
    for (const step of proc.steps) expect(norm(answer.text)).toContain(norm(step).slice(0, 30));
  });

  it('a quoted sentence gets the region of the paragraph or unit that holds it, on its page', () => {
    const page = 1;
    const hits = hitsFor(page);
    const reading = readQuestion('What does the controller switch?', hits)!;
    const quote = `${
      unitsOf(page)
        .find((u) => u.kind === 'paragraph')!
        .text.split('. ')[0]
    } [1].`;
    const { regions } = anchorQuotes(reading, [quote], unitsOf(page));
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ manualId: MANUAL, page, kind: 'paragraph' });
  });

  it('a quote no unit holds gets no region', () => {
    const reading = readQuestion('What does the controller switch?', hitsFor(1))!;
    expect(anchorQuotes(reading, ['Completely unrelated words about something else entirely [1].'], unitsOf(1)).regions).toEqual([]);
  });
});

describe('a unit read from OCR text', () => {
  it('is shown as where to look, with what its text seems to say, and never stated', () => {
    const cell = manual.truth.tables.find((t) => t.id === 'variants')!.cells.find((c) => c.column.join(' ').startsWith('Power'))!;
    // The same page as a scanned copy would give it: every unit's text from OCR.
    const scanned = unitsOf(cell.page).map((u) => ({ ...u, ocr: true }));
    const answer = extractiveAnswer(`What is the ${cell.column.join(' ')} for ${cell.row}?`, hitsFor(cell.page), { units: scanned });
    expect(answer.mode).toBe('pages');
    expect(answer.declined).toBe(true);
    expect(answer.text).toMatch(
      /^The answer may be in this table on a scanned page \(page 1\); its text reads ".*1450.*", which may be misread\. Check it on the page\.$/,
    );
    expect(answer.structure?.regions[0]).toMatchObject({ page: cell.page, kind: 'table' });
    expect(answer.evidence.regions?.length).toBeGreaterThan(0);
  });
});
