/**
 * Answers read from one structure unit of a page (the units ingest stores: a table, a procedure,
 * a labelled value, a code list), the way a technician reads them:
 *   - a quantity or a property: the table cell at the row and column whose labels cover the
 *     question ("CH2 · Max current: 3 A"), or the labelled value whose key does; two parts of one
 *     thing: two cells of its row or column ("CC4-P24S · Heater power: 2300 W · Fan current: 0.8 A");
 *   - a code: its entry ("E05: Overpressure");
 *   - "how do I …": the whole step list under the heading that matches the task.
 * A cell whose row or column labels contradict the question (it asks for a label the table gives
 * another row or column) is never read. Each reading carries its unit's region on the page, so the
 * reply can show it.
 */
import { matchTerms, words } from '@/lib/text/analyze';
import { citedRefs, stripCitations } from '@/lib/text/sentences';
import { valueKinds } from '@/lib/text/quantities';
import { groupWeight, type EvidenceRegion } from './decide';
import { cite } from './quote';
import { askedDesignations, namesOtherDesignation, type Reading } from './select';

type Box = { x: number; y: number; w: number; h: number };

/** A stored unit as the answer stage reads it (lib/store/units.ts rows; kind-specific fields in `data`). */
export interface PageUnit {
  manualId: string;
  page: number;
  kind: string;
  heading: string;
  text: string;
  ocr: boolean;
  regions: Array<{ page: number; bbox: Box }>;
  data: Record<string, unknown>;
}

interface TableData {
  columns: Array<{ header: string[]; unit: string | null }>;
  rows: Array<{ label: string; page: number; bbox: Box }>;
  cells: Array<{ row: number; col: number; text: string; page: number; bbox: Box }>;
}
interface Step {
  marker: string;
  text: string;
  page: number;
  bbox: Box;
}
interface CodeEntry {
  code: string;
  meaning: string;
  page: number;
  bbox: Box;
}

export interface StructuredReading {
  kind: 'cell' | 'row' | 'labelled_value' | 'code' | 'procedure';
  manualId: string;
  page: number;
  /** The hit the answer cites for that page. */
  ref: number;
  /** The answer, cited. */
  text: string;
  /** Weighted share of the question's words the unit's labels, heading and value cover. */
  coverage: number;
  /** The question asks for a kind of quantity the read value does not state. */
  quantityMissing: boolean;
  /** The unit's regions, then the read cell or entry. */
  regions: EvidenceRegion[];
  /** The unit's text came from OCR (a scanned page): the reply shows where to look, and states nothing. */
  ocr: boolean;
  /** Boxes of the value read (a cell, an entry, a row), to mark inside the region; `value` is its text. */
  valueBoxes: Array<Box & { page: number; value: string }>;
}

/** Pages read for a structure, by rank among the retrieved pages: the right page is in the top 3 for most questions (docs/eval.md). */
export const STRUCTURE_PAGES = 3;
/** At most this many steps are quoted (4 of the 226 procedures read from the public manuals are longer); a longer one ends with where the rest is. */
const MAX_STEPS = 15;
/**
 * Score lost per page rank: a reading on a lower page must cover more of the question. Set before
 * any figure was seen, not tuned: a quarter of one word's share in a five-word question.
 */
const PAGE_RANK_COST = 0.05;
/** Tie-break, far below any coverage step: a reading that states the asked kind of quantity first. */
const STATES_ASKED_BONUS = 0.01;

const toEvidence = (manualId: string, page: number, b: Box, kind: string): EvidenceRegion => ({
  manualId,
  page,
  bbox: [round(b.x), round(b.y), round(b.x + b.w), round(b.y + b.h)],
  kind,
});
const round = (x: number) => Math.round(x * 10) / 10;
const normCode = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
/** A code as printed in code tables: letters then digits ("E01", "F-11"), or hex. */
const CODE_WORD = /\b(?:[A-Z]{1,4}[-\s]?\d{1,4}[A-Z]?|0x[0-9A-F]{1,4})\b/gi;
const PROCEDURAL_UNIT = new Set(['procedure']);

/** The question's weighted word groups, and how much of them a set of terms covers. */
function coverageOf(r: Reading, manualId: string, terms: Set<string>): number {
  let total = 0;
  let got = 0;
  for (const g of r.groups) {
    const topic = g.some((t) => r.isTopic(t, manualId));
    const w = groupWeight(g, topic, r.known);
    total += w;
    if (topic || g.some((t) => terms.has(t))) got += w;
  }
  return got / (total || 1);
}

/** Question terms that are not the device's name: the ones that must point at a row or column. */
const askedTerms = (r: Reading, manualId: string) => new Set(r.qTerms.filter((t) => !r.isTopic(t, manualId)));
const termSet = (...texts: string[]) => new Set(texts.flatMap((t) => matchTerms(t)));
/** A label word cut short ("Max", "Temp", "Freq"): 3–4 letters that begin a longer question term. */
const ABBREVIATION = /^\p{L}{3,4}$/u;
/** Letters a question term must add to a cut word to be read as its full form ("max" → "maximum", never "port" → "porta"). */
const MIN_CUT = 3;
/**
 * A label's terms, with the question's terms its cut-short words abbreviate: tables shorten their
 * labels ("Max voltage") where a technician writes the word out ("maximum voltage").
 */
function labelTermSet(r: Reading, text: string): Set<string> {
  const out = termSet(text);
  for (const w of words(text)) {
    if (!ABBREVIATION.test(w)) continue;
    for (const t of r.qTerms) if (t.length >= w.length + MIN_CUT && t.startsWith(w)) out.add(t);
  }
  return out;
}
const meets = (a: Set<string>, b: Set<string>) => [...a].some((t) => b.has(t));

/** The best reading of the units on the retrieved pages, or undefined when no unit fits the question. */
export function readStructure(r: Reading, units: readonly PageUnit[]): StructuredReading | undefined {
  const pageRank = new Map<string, number>();
  const refOf = new Map<string, number>();
  for (const p of r.passages) {
    const key = `${p.hit.manualId}#${p.hit.page}`;
    if (refOf.has(key)) continue;
    refOf.set(key, p.hit.ref);
    pageRank.set(key, pageRank.size);
  }
  const asked = [...r.askedQuantities];
  const codes = new Set([...r.question.matchAll(CODE_WORD)].map((m) => normCode(m[0])).filter((c) => /\d/.test(c) && /[A-Z]/.test(c)));
  let best: { reading: StructuredReading; score: number } | undefined;
  for (const u of units) {
    const key = `${u.manualId}#${u.page}`;
    const ref = refOf.get(key);
    const rank = pageRank.get(key);
    if (ref === undefined || rank === undefined || rank >= STRUCTURE_PAGES) continue;
    for (const reading of readingsOf(r, u, ref, asked, codes)) {
      const score = reading.coverage - PAGE_RANK_COST * rank + (reading.quantityMissing ? 0 : STATES_ASKED_BONUS);
      if (!best || score > best.score) best = { reading, score };
    }
  }
  return best?.reading;
}

function readingsOf(r: Reading, u: PageUnit, ref: number, asked: string[], codes: Set<string>): StructuredReading[] {
  const heading = termSet(u.heading);
  const regions = u.regions.map((g) => toEvidence(u.manualId, g.page, g.bbox, u.kind));
  const base = { manualId: u.manualId, page: u.page, ref, regions, ocr: u.ocr };
  const missing = (value: string) => asked.length > 0 && !asked.some((k) => valueKinds(value).has(k));
  const wanted = askedTerms(r, u.manualId);
  const out: StructuredReading[] = [];

  if (u.kind === 'code_list') {
    for (const e of (u.data.entries as CodeEntry[] | undefined) ?? []) {
      if (!codes.has(normCode(e.code))) continue;
      const terms = termSet(e.code, e.meaning, u.heading);
      out.push({
        ...base,
        kind: 'code',
        text: cite(`${e.code}: ${e.meaning}`, ref),
        coverage: coverageOf(r, u.manualId, terms),
        quantityMissing: missing(e.meaning),
        valueBoxes: [{ ...e.bbox, page: e.page, value: e.meaning }],
      });
    }
  }

  const table = u.data.table as TableData | undefined;
  if (table && table.rows.length) out.push(...tableReadings(r, u, table, heading, wanted, base, missing, askedDesignations(r, u.manualId)));

  if (u.kind === 'labelled_value') {
    const key = String(u.data.key ?? '');
    const value = String(u.data.value ?? '');
    const keyTerms = labelTermSet(r, key);
    const box = u.regions[0]?.bbox;
    if (meets(keyTerms, wanted)) {
      const terms = new Set([...keyTerms, ...heading, ...termSet(value)]);
      out.push({
        ...base,
        kind: 'labelled_value',
        text: cite(`${key}: ${value}`, ref),
        coverage: coverageOf(r, u.manualId, terms),
        quantityMissing: missing(value),
        valueBoxes: box ? [{ ...box, page: u.regions[0].page, value }] : [],
      });
    }
  }

  if (PROCEDURAL_UNIT.has(u.kind) && r.procedural) {
    const steps = (u.data.steps as Step[] | undefined) ?? [];
    // The heading names the task; a procedure under a heading the question does not touch is another task.
    if (steps.length >= 2 && meets(heading, wanted)) {
      const terms = new Set([...heading, ...steps.flatMap((s) => matchTerms(s.text))]);
      out.push({
        ...base,
        kind: 'procedure',
        text: procedureText(u.heading, steps, ref),
        coverage: coverageOf(r, u.manualId, terms),
        quantityMissing: false,
        valueBoxes: [],
      });
    }
  }
  return out;
}

function tableReadings(
  r: Reading,
  u: PageUnit,
  table: TableData,
  heading: Set<string>,
  wanted: Set<string>,
  base: Pick<StructuredReading, 'manualId' | 'page' | 'ref' | 'regions' | 'ocr'>,
  missing: (value: string) => boolean,
  askedDesignations: Set<string>,
): StructuredReading[] {
  const header = table.columns.map((c) => c.header.join(' '));
  const headerTerms = header.map((h) => labelTermSet(r, h));
  const rowTerms = table.rows.map((row) => labelTermSet(r, row.label));
  // Labels of this table the question uses: each must be met by the row or column read.
  const labelTerms = new Set([...headerTerms, ...rowTerms].flatMap((s) => [...s]).filter((t) => wanted.has(t)));
  if (labelTerms.size === 0) return [];
  const out: StructuredReading[] = [];
  const cellsOfRow = new Map<number, TableData['cells']>();
  for (const c of table.cells) cellsOfRow.set(c.row, [...(cellsOfRow.get(c.row) ?? []), c]);
  const uncovered = (labels: Set<string>) => [...labelTerms].filter((t) => !labels.has(t) && !heading.has(t));
  // Cells a row or column label of the question points at; one whose labels leave a part unmet may pair with another.
  const partial: PartialCell[] = [];
  table.rows.forEach((row, ri) => {
    // A row labelled with another designation than the asked one is a neighbour ("E02" when "E05" is asked).
    if (namesOtherDesignation(row.label, askedDesignations)) return;
    const cells = (cellsOfRow.get(ri) ?? []).filter((c) => c.col > 0 && c.text);
    const rowMet = meets(rowTerms[ri], wanted);
    for (const c of cells) {
      const colMet = meets(headerTerms[c.col], wanted);
      const cellTerms = termSet(c.text);
      if (!rowMet && !colMet) continue;
      const labels = new Set([...rowTerms[ri], ...headerTerms[c.col], ...cellTerms]);
      // A label the question asks for that this row and column do not carry points elsewhere.
      if (uncovered(labels).length) {
        partial.push({ ri, cell: c, labels });
        continue;
      }
      const terms = new Set([...labels, ...heading]);
      const label = [row.label, header[c.col]].filter(Boolean).join(' · ');
      out.push({
        ...base,
        kind: 'cell',
        text: cite(`${label}: ${c.text}`, base.ref),
        coverage: coverageOf(r, u.manualId, terms),
        quantityMissing: missing(`${c.text} ${table.columns[c.col].unit ?? ''}`),
        valueBoxes: [{ ...c.bbox, page: c.page, value: c.text }],
      });
    }
    // A row the question names by its label, with no column asked: the whole row.
    if (rowMet && cells.length && cells.length <= 4 && ![...labelTerms].some((t) => headerTerms.some((h) => h.has(t)))) {
      const text = [row.label, ...cells.map((c) => (header[c.col] ? `${header[c.col]}: ${c.text}` : c.text))].join(' · ');
      const terms = new Set([...rowTerms[ri], ...cells.flatMap((c) => [...termSet(c.text)]), ...heading]);
      out.push({
        ...base,
        kind: 'row',
        text: cite(text, base.ref),
        coverage: coverageOf(r, u.manualId, terms),
        quantityMissing: missing(cells.map((c) => c.text).join(' ')),
        valueBoxes: [],
      });
    }
  });
  out.push(...pairReadings(r, u, { table, header, headerTerms, rowTerms, heading, wanted, uncovered }, partial, base, missing));
  return out;
}

/** A cell the question points at whose labels leave a part of it unmet (row index, cell, its labels' terms). */
type PartialCell = { ri: number; cell: TableData['cells'][number]; labels: Set<string> };

/** A table's labels as the question meets them (tableReadings). */
interface TableLabels {
  table: TableData;
  header: string[];
  headerTerms: Set<string>[];
  rowTerms: Set<string>[];
  heading: Set<string>;
  wanted: Set<string>;
  /** The asked labels a set of terms leaves unmet. */
  uncovered: (labels: Set<string>) => string[];
}

/**
 * A two-part question ("the minimum and the maximum voltage of the heater circuit") read as two
 * cells of one column (or one row) that the question names: each cell's labels leave a part of the
 * question unmet that the other's meet, and together they leave none. Two cells sharing no asked
 * label are two things, not two parts of one.
 */
function pairReadings(
  r: Reading,
  u: PageUnit,
  labelsOf: TableLabels,
  partial: readonly PartialCell[],
  base: Pick<StructuredReading, 'manualId' | 'page' | 'ref' | 'regions' | 'ocr'>,
  missing: (value: string) => boolean,
): StructuredReading[] {
  const { table, header, headerTerms, rowTerms, heading, wanted, uncovered } = labelsOf;
  const unitOf = (c: TableData['cells'][number]) => table.columns[c.col].unit ?? '';
  const out: StructuredReading[] = [];
  for (const [i, a] of partial.entries()) {
    for (const b of partial.slice(i + 1)) {
      const sameCol = a.cell.col === b.cell.col && a.ri !== b.ri;
      const sameRow = a.ri === b.ri && a.cell.col !== b.cell.col;
      if (!sameCol && !sameRow) continue;
      const labels = new Set([...a.labels, ...b.labels]);
      if (uncovered(labels).length) continue;
      if (!meets(sameCol ? headerTerms[a.cell.col] : rowTerms[a.ri], wanted)) continue;
      const [shared, partA, partB] = sameCol
        ? [header[a.cell.col], table.rows[a.ri].label, table.rows[b.ri].label]
        : [table.rows[a.ri].label, header[a.cell.col], header[b.cell.col]];
      const text = [shared, `${partA}: ${a.cell.text}`, `${partB}: ${b.cell.text}`].filter(Boolean).join(' · ');
      out.push({
        ...base,
        kind: 'cell',
        text: cite(text, base.ref),
        coverage: coverageOf(r, u.manualId, new Set([...labels, ...heading])),
        quantityMissing: missing(`${a.cell.text} ${unitOf(a.cell)} ${b.cell.text} ${unitOf(b.cell)}`),
        valueBoxes: [a.cell, b.cell].map((c) => ({ ...c.bbox, page: c.page, value: c.text })),
      });
    }
  }
  return out;
}

function procedureText(heading: string, steps: Step[], ref: number): string {
  const numbered = steps.every((s) => /\d/.test(s.marker));
  const shown = steps.slice(0, MAX_STEPS).map((s, i) => `${numbered ? `${i + 1}.` : '•'} ${s.text.replace(/\s*[.;]?\s*$/, '')}.`);
  const rest = steps.length > MAX_STEPS ? ` (${steps.length - MAX_STEPS} more steps on page ${steps[MAX_STEPS].page}.)` : '';
  const title = heading.split('>').at(-1)?.trim();
  // One step a line: the chat shows an extractive answer's line breaks as written.
  return cite(`${title ? `${title}:\n` : ''}${shown.join('\n')}${rest}`, ref);
}

/** The boxes a citation of this reading highlights on `page`: the unit's region, then its value (a ValueBox). */
export function readingBoxes(read: StructuredReading, page: number): Array<Box & { value?: string }> {
  const regions = read.regions.filter((g) => g.page === page).map(({ bbox: [x0, y0, x1, y1] }) => ({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }));
  const values = read.valueBoxes.filter((b) => b.page === page).map(({ x, y, w, h, value }) => ({ x, y, w, h, value }));
  return [...regions, ...values];
}

/** Characters of structures an LLM is given beside the passages (~3k tokens, a fifth of the passages' budget). */
const MAX_PROMPT_CHARS = 12_000;
const gridCell = (s: string) => s.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();

/**
 * The units as a language model reads them, each under the source number of its page: a table as
 * a grid with its headers, a procedure whole, a code list and a labelled value as printed. Flattened
 * passages lose which value sits under which header; the grid keeps it.
 */
export function unitsForPrompt(units: readonly PageUnit[], refOf: (manualId: string, page: number) => number | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let used = 0;
  for (const u of units) {
    const ref = refOf(u.manualId, u.page);
    // A unit over two of the pages (a table continued overleaf) is given once.
    const key = `${u.manualId}\u0000${u.kind}\u0000${u.text}`;
    if (ref === undefined || u.kind === 'paragraph' || u.kind === 'figure' || seen.has(key)) continue;
    seen.add(key);
    const where = `[${ref}] p.${u.page}${u.heading ? ` (${u.heading})` : ''}`;
    const table = u.data.table as TableData | undefined;
    let body: string;
    if (table) {
      const width = table.columns.length;
      const head = `| ${table.columns.map((c) => gridCell(c.header.join(' '))).join(' | ')} |`;
      const rows = table.rows.map((r, i) => {
        const cells = Array.from({ length: width }, (_, col) => (col === 0 ? r.label : (table.cells.find((c) => c.row === i && c.col === col)?.text ?? '')));
        return `| ${cells.map(gridCell).join(' | ')} |`;
      });
      body = [`table:`, head, `|${' --- |'.repeat(width)}`, ...rows].join('\n');
    } else if (u.kind === 'procedure') {
      const steps = (u.data.steps as Step[] | undefined) ?? [];
      body = ['procedure:', ...steps.map((s, i) => `${/\d/.test(s.marker) ? `${i + 1}.` : '-'} ${s.text}`)].join('\n');
    } else {
      body = `${u.kind.replace('_', ' ')}: ${u.text}`;
    }
    const block = `${where} ${body}`;
    if (used + block.length > MAX_PROMPT_CHARS) break;
    out.push(block);
    used += block.length;
  }
  return out;
}

/**
 * A quote is placed in the unit holding at least this share of its words (the rest: wrapped-line
 * and OCR differences); the environment's line matching uses 0.8 for single lines, a unit is longer.
 */
const ANCHOR_SHARE = 0.6;

interface Anchor {
  unit: PageUnit;
  ref: number;
  /** The row, step or entry of the unit the quote is from, when the unit has parts. */
  part: (Box & { page: number }) | null;
}

const wordSet = (text: string) => new Set(words(text).filter((w) => /[\p{L}\p{N}]/u.test(w)));
const shareIn = (quote: Set<string>, text: string) => {
  if (quote.size === 0) return 0;
  const have = wordSet(text);
  return [...quote].filter((w) => have.has(w)).length / quote.size;
};

/** The unit on the quote's page that holds the quote (and its row or step), or null. */
function anchorOf(quote: string, ref: number, hit: { manualId: string; page: number }, units: readonly PageUnit[]): Anchor | null {
  const q = wordSet(stripCitations(quote));
  let best: { a: Anchor; share: number; size: number } | null = null;
  for (const unit of units) {
    if (unit.manualId !== hit.manualId || unit.page !== hit.page) continue;
    const share = shareIn(q, `${unit.heading}\n${unit.text}`);
    if (share < ANCHOR_SHARE) continue;
    if (best && (share < best.share || (share === best.share && unit.text.length >= best.size))) continue;
    best = { a: { unit, ref, part: partOf(unit, q) }, share, size: unit.text.length };
  }
  return best?.a ?? null;
}

/** The row of a table, step of a procedure or entry of a code list holding most of the quote. */
function partOf(unit: PageUnit, q: Set<string>): (Box & { page: number }) | null {
  const table = unit.data.table as TableData | undefined;
  const parts: Array<{ text: string; box: Box & { page: number } }> = [];
  if (table) {
    table.rows.forEach((row, i) => {
      const text = [row.label, ...table.cells.filter((c) => c.row === i && c.col > 0).map((c) => c.text)].join(' ');
      parts.push({ text, box: { ...row.bbox, page: row.page } });
    });
  }
  for (const s of (unit.data.steps as Step[] | undefined) ?? []) parts.push({ text: s.text, box: { ...s.bbox, page: s.page } });
  for (const e of (unit.data.entries as CodeEntry[] | undefined) ?? []) parts.push({ text: `${e.code} ${e.meaning}`, box: { ...e.bbox, page: e.page } });
  let best: { box: Box & { page: number }; share: number } | null = null;
  for (const p of parts) {
    const share = shareIn(q, p.text);
    if (share > 0 && (!best || share > best.share)) best = { box: p.box, share };
  }
  return best?.box ?? null;
}

/**
 * The page regions of an answer quoted sentence by sentence (the passage reader's): each quote is
 * placed in the unit of its page that holds it, so the reply can show that region. For a "how do
 * I" question whose first quote is a step of a procedure, the whole procedure is the answer: its
 * steps to the last one, under its heading, rather than the steps that happened to score.
 */
export function anchorQuotes(r: Reading, parts: readonly string[], units: readonly PageUnit[]): { regions: EvidenceRegion[]; procedure?: StructuredReading } {
  const regions: EvidenceRegion[] = [];
  const seen = new Set<PageUnit>();
  let first: Anchor | null = null;
  for (const part of parts) {
    const ref = citedRefs(part)[0];
    const hit = ref === undefined ? undefined : r.passageOf.get(ref)?.hit;
    if (!hit) continue;
    const anchor = anchorOf(part, ref, hit, units);
    if (!anchor) continue;
    first ??= anchor;
    if (seen.has(anchor.unit)) continue;
    seen.add(anchor.unit);
    regions.push(...anchor.unit.regions.map((g) => toEvidence(anchor.unit.manualId, g.page, g.bbox, anchor.unit.kind)));
  }
  const steps = first?.unit.kind === 'procedure' ? ((first.unit.data.steps as Step[] | undefined) ?? []) : [];
  if (!r.procedural || !first || steps.length < 2) return { regions };
  const u = first.unit;
  return {
    regions,
    procedure: {
      kind: 'procedure',
      manualId: u.manualId,
      page: u.page,
      ref: first.ref,
      text: procedureText(u.heading, steps, first.ref),
      coverage: 0,
      quantityMissing: false,
      ocr: u.ocr,
      regions: u.regions.map((g) => toEvidence(u.manualId, g.page, g.bbox, u.kind)),
      valueBoxes: [],
    },
  };
}

/** The unit of a page that covers most of the question (a closest-page card shows its region), or undefined. */
export function bestRegionOnPage(r: Reading, units: readonly PageUnit[], manualId: string, page: number): EvidenceRegion | undefined {
  let best: { region: EvidenceRegion; coverage: number; area: number } | undefined;
  for (const u of units) {
    if (u.manualId !== manualId || u.page !== page) continue;
    const region = u.regions.find((g) => g.page === page);
    if (!region) continue;
    const coverage = coverageOf(r, manualId, termSet(u.heading, u.text));
    // Of units that cover the question alike, the larger shows more of what the page holds.
    const area = region.bbox.w * region.bbox.h;
    if (!best || coverage > best.coverage || (coverage === best.coverage && area > best.area))
      best = { region: toEvidence(manualId, page, region.bbox, u.kind), coverage, area };
  }
  return best?.region;
}
