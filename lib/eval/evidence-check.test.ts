/**
 * The region check on the generated structure manual's real PDF: a stated answer's keyword is
 * found in the page's text layer and judged inside or outside the answer's regions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateStructureManual } from '@/lib/sample/testing/tables';
import { openPdf } from '@/lib/ingest/pdf';
import { checkValueRegions } from './evidence-check';
import type { QuestionResult } from './report';

let file = '';
let cell = { x: 0, y: 0, w: 0, h: 0 };
const KEYWORD = 'T 6.3';

beforeAll(async () => {
  const manual = await generateStructureManual();
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mc-evidence-')), 'structure.pdf');
  fs.writeFileSync(file, manual.pdf);
  const doc = await openPdf(manual.pdf, { maxBytes: Infinity, maxPages: Infinity });
  const page = await doc.extractPage(1);
  await doc.close();
  cell = page.lines.flatMap((l) => l.cells).find((c) => c.text.trim() === KEYWORD)!.bbox;
});

const stated = (bbox: [number, number, number, number], page = 1): QuestionResult =>
  ({ id: 'q', manual: 'structure.pdf', kind: 'fact', answerable: true, rank: 1, top: [], ms: 1, answer: { text: KEYWORD, declined: false, keywordHit: true, missingKeywords: [], refused: false, madeUp: [], mode: 'answer', evidence: [{ manual: 'structure.pdf', page, bbox, kind: 'table' }] } }) as QuestionResult;

describe('checkValueRegions', () => {
  it('counts an answer whose keyword lies inside its region, and one whose region misses it', async () => {
    const around = stated([cell.x - 20, cell.y - 10, cell.x + cell.w + 20, cell.y + cell.h + 10]);
    const beside = stated([cell.x + cell.w + 50, cell.y, cell.x + cell.w + 150, cell.y + cell.h]);
    await checkValueRegions([around, beside], () => [KEYWORD], () => file);
    expect(around.answer!.valueInRegion).toBe(true);
    expect(beside.answer!.valueInRegion).toBe(false);
  });

  it('leaves out an answer whose keyword its regions’ pages do not hold', async () => {
    const other = stated([0, 0, 600, 800], 5);
    await checkValueRegions([other], () => [KEYWORD], () => file);
    expect(other.answer!.valueInRegion).toBeUndefined();
  });
});
