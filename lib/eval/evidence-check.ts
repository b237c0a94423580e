/**
 * Whether a stated answer's regions hold its value: for each stated answer that holds every answer
 * keyword and reports regions, each keyword is looked up in the text layer of the regions' pages
 * (the PDF's own cells: pdf.js text runs split at wide gaps), and the answer counts as boxed when
 * every keyword found there lies inside one of its regions. Keywords a page's text layer does not
 * hold (scanned pages, a value on another page) leave the answer out of the figure.
 */
import fs from 'node:fs';
import { openPdf, type PageContent } from '@/lib/ingest/pdf';
import type { QuestionResult } from './report';

/** Points a cell may stick out of a region (line boxes and unit boxes are measured differently). */
const TOLERANCE = 2;

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '').replace(/\u2212/g, '-');

type Region = NonNullable<NonNullable<QuestionResult['answer']>['evidence']>[number];

/** The cells of the page whose text holds the keyword (a keyword may span a line's cells: then the line). */
function keywordBoxes(page: PageContent, keyword: string): Array<{ x: number; y: number; w: number; h: number }> {
  const k = norm(keyword);
  const boxes = [];
  for (const line of page.lines) {
    if (line.ocr || !norm(line.text).includes(k)) continue;
    const cell = line.cells.find((c) => norm(c.text).includes(k));
    boxes.push(cell ? cell.bbox : line.bbox);
  }
  return boxes;
}

const inside = (b: { x: number; y: number; w: number; h: number }, g: Region) =>
  b.x >= g.bbox[0] - TOLERANCE && b.y >= g.bbox[1] - TOLERANCE && b.x + b.w <= g.bbox[2] + TOLERANCE && b.y + b.h <= g.bbox[3] + TOLERANCE;

/**
 * Sets `answer.valueInRegion` on each stated, keyword-holding answer with regions whose keywords
 * the text layer has; `pdfOf` maps a manual's file name to its stored PDF.
 */
export async function checkValueRegions(results: QuestionResult[], keywordsOf: (id: string) => string[], pdfOf: (manual: string) => string | undefined): Promise<void> {
  const pages = new Map<string, Promise<PageContent | null>>();
  const pageOf = (manual: string, n: number) => {
    const key = `${manual}#${n}`;
    let p = pages.get(key);
    if (!p) {
      const file = pdfOf(manual);
      p = file ? readPage(file, n).catch(() => null) : Promise.resolve(null);
      pages.set(key, p);
    }
    return p;
  };
  for (const r of results) {
    const a = r.answer;
    if (!a || a.mode !== 'answer' || !a.keywordHit || !a.evidence?.length) continue;
    let found = 0;
    let boxed = 0;
    for (const keyword of keywordsOf(r.id)) {
      const candidates = await Promise.all(
        [...new Set(a.evidence.map((g) => `${g.manual}#${g.page}`))].map(async (key) => {
          const [manual, n] = [key.slice(0, key.lastIndexOf('#')), Number(key.slice(key.lastIndexOf('#') + 1))];
          const page = await pageOf(manual, n);
          return page ? keywordBoxes(page, keyword).map((b) => ({ b, manual, n })) : [];
        }),
      );
      const all = candidates.flat();
      if (!all.length) continue;
      found++;
      if (all.some(({ b, manual, n }) => a.evidence!.some((g) => g.manual === manual && g.page === n && inside(b, g)))) boxed++;
    }
    if (found > 0) a.valueInRegion = boxed === found;
  }
}

async function readPage(file: string, n: number): Promise<PageContent | null> {
  const doc = await openPdf(new Uint8Array(fs.readFileSync(file)), { maxBytes: Infinity, maxPages: Infinity });
  try {
    const page = await doc.extractPage(n);
    return page.hasTextLayer ? page : null;
  } finally {
    await doc.close();
  }
}
