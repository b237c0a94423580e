/**
 * Find in a manual: every place a word or number occurs in one manual's page text and
 * OCR text, in page order, with a snippet and — where the stored chunk lines carry boxes — the
 * match's box on the page, so the viewer can highlight it the way it highlights a citation.
 *
 * Matching is a case-insensitive substring over a folded form: white space collapsed, and dropped
 * where it touches a digit, so "24 V" finds "24V" and "24 V"; dashes and minus signs are one.
 */
import type { BBox } from '../providers/types';
import { getManual, listChunksOfPages, listPages } from '../store/manuals';

/** At most this many matches are returned (the total is still counted). */
const MAX_FIND_MATCHES = 500;
/** Characters of context either side of a match in its snippet. */
const CONTEXT = 60;

export interface FindMatch {
  page: number;
  /** The snippet: text before the match, the match as the page writes it, text after. */
  before: string;
  match: string;
  after: string;
  /** The line holding the match, and the match itself inside it (estimated by its share of the line's characters). */
  line?: BBox;
  box?: BBox & { value: string };
}

export interface FindResult {
  query: string;
  total: number;
  matches: FindMatch[];
}

const DASHES = /[\u2010-\u2015\u2212]/;
const SPACE = /\s/;
const DIGIT = /\p{N}/u;

/** `text` folded for matching, with the index in `text` of every folded character. */
function fold(text: string): { form: string; at: number[] } {
  let form = '';
  const at: number[] = [];
  const chars = [...text];
  let offset = 0;
  const offsets = chars.map((c) => {
    const o = offset;
    offset += c.length;
    return o;
  });
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (SPACE.test(ch)) {
      let j = i;
      while (j + 1 < chars.length && SPACE.test(chars[j + 1])) j++;
      const next = chars[j + 1];
      const prev = form.at(-1);
      // Leading and trailing space, and space beside a digit, fold away.
      if (prev !== undefined && next !== undefined && !DIGIT.test(prev) && !DIGIT.test(next)) {
        form += ' ';
        at.push(offsets[i]);
      }
      i = j;
      continue;
    }
    const f = DASHES.test(ch) ? '-' : ch.normalize('NFKC').toLowerCase();
    for (const c of f) {
      form += c;
      at.push(offsets[i]);
    }
  }
  return { form, at };
}

/** Every [start, end) in `text` where the folded `needle` occurs. */
function occurrences(text: string, needle: string): Array<[number, number]> {
  if (!needle || !text) return [];
  const { form, at } = fold(text);
  const out: Array<[number, number]> = [];
  for (let k = form.indexOf(needle); k >= 0; k = form.indexOf(needle, k + needle.length)) {
    const last = at[k + needle.length - 1];
    out.push([at[k], last + String.fromCodePoint(text.codePointAt(last)!).length]);
  }
  return out;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ');

function snippet(text: string, [start, end]: [number, number]) {
  const head = text.slice(Math.max(0, start - CONTEXT), start);
  const tail = text.slice(end, end + CONTEXT);
  return {
    before: (start > CONTEXT ? '…' : '') + oneLine(head).trimStart(),
    match: oneLine(text.slice(start, end)),
    after: oneLine(tail).trimEnd() + (end + CONTEXT < text.length ? '…' : ''),
  };
}

/** Characters [start, end) of a line drawn in `box`, placed by their share of the line's characters. */
function withinLine(text: string, box: BBox, start: number, end: number): BBox {
  const len = Math.max(1, text.length);
  return { x: box.x + (box.w * start) / len, y: box.y, w: Math.max((box.w * (end - start)) / len, 1), h: box.h };
}

/**
 * Where characters [start, end) of a chunk whose lines were joined (a paragraph) are drawn: each
 * line box holds a share of the text in proportion to its width (one font size), so the match
 * lands on its line, at about its place. An estimate: the preview refines it from the PDF.
 */
function placeInChunk(text: string, boxes: BBox[], [start, end]: [number, number]): { line: BBox; box: BBox } | null {
  const total = boxes.reduce((sum, b) => sum + b.w, 0);
  const chars = text.replace(/\n/g, '').length;
  if (!total || !chars) return null;
  const flat = (i: number) => i - (text.slice(0, i).match(/\n/g)?.length ?? 0);
  const at = (flat(start) / chars) * total;
  let i = 0;
  let before = 0;
  while (i < boxes.length - 1 && before + boxes[i].w <= at) before += boxes[i++].w;
  const line = boxes[i];
  const x = line.x + Math.min(line.w, at - before);
  const w = Math.max(1, Math.min(line.x + line.w - x, ((end - start) / chars) * total));
  return { line, box: { x, y: line.y, w, h: line.h } };
}

const chunkOrder = (id: string) => Number(/:c(\d+)$/.exec(id)?.[1] ?? 0);

/** The matches of `query` in one manual, page by page; null when the manual does not exist. */
export async function findInManual(manualId: string, query: string): Promise<FindResult | null> {
  const manual = await getManual(manualId);
  if (!manual) return null;
  const needle = fold(query).form.trim();
  if (!needle) return { query, total: 0, matches: [] };
  const pages = await listPages(manualId);
  const hits = pages
    .map((p) => ({ page: p, inText: occurrences(p.text, needle), inOcr: occurrences(p.ocrText ?? '', needle) }))
    .filter((h) => h.inText.length || h.inOcr.length);
  // Chunk lines carry one box each (lib/ingest/chunk.ts): where they hold the match, it can be boxed.
  const chunks = await listChunksOfPages(
    manualId,
    hits.map((h) => h.page.number),
  );
  const matches: FindMatch[] = [];
  let total = 0;
  for (const { page, inText, inOcr } of hits) {
    const seen = new Set<string>();
    const boxed: FindMatch[] = [];
    for (const chunk of chunks.filter((c) => c.page === page.number).sort((a, b) => chunkOrder(a.id) - chunkOrder(b.id))) {
      const lines = chunk.text.split('\n');
      if (lines.length !== chunk.bboxes.length) {
        // A paragraph's lines are joined into one: place the match by its share of the drawn width.
        for (const range of occurrences(chunk.text, needle)) {
          const placed = placeInChunk(chunk.text, chunk.bboxes, range);
          if (!placed) continue;
          const key = `${range[1] - range[0]}@${placed.box.x.toFixed(0)},${placed.line.y.toFixed(1)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          boxed.push({ page: page.number, ...snippet(chunk.text, range), line: placed.line, box: { ...placed.box, value: chunk.text.slice(...range) } });
        }
        continue;
      }
      lines.forEach((line, i) => {
        const b = chunk.bboxes[i];
        // Overlapping chunks repeat a line or two: count each drawn line once.
        const key = `${line}@${b.x.toFixed(1)},${b.y.toFixed(1)}`;
        if (seen.has(key)) return;
        seen.add(key);
        for (const range of occurrences(line, needle)) {
          boxed.push({ page: page.number, ...snippet(line, range), line: b, box: { ...withinLine(line, b, ...range), value: line.slice(...range) } });
        }
      });
    }
    // Text the chunks leave out (running heads, OCR beyond the lines) still counts, without a box.
    const [source, ranges] = inText.length >= inOcr.length ? [page.text, inText] : [page.ocrText ?? '', inOcr];
    const unboxed = ranges.slice(boxed.length).map((r): FindMatch => ({ page: page.number, ...snippet(source, r) }));
    for (const m of [...boxed, ...unboxed]) {
      total++;
      if (matches.length < MAX_FIND_MATCHES) matches.push(m);
    }
  }
  return { query, total, matches };
}
