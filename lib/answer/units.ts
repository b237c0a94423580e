/**
 * A passage as the answer writer reads it: units a quote can be made of. Wrapped lines are joined
 * first; then each line is a sentence, a list item or a table row. A row is quoted whole with its
 * table's header ("Code: E05; Meaning: …"); the header, like an FAQ question line above an answer,
 * is context that helps a unit rank but is never quoted as the answer itself.
 */
import type { RefHit } from '@/lib/answer/hits';
import { matchTerms, words } from '@/lib/text/analyze';
import { splitSentences } from '@/lib/text/sentences';

type UnitKind = 'sentence' | 'item' | 'row' | 'header' | 'question';

export interface Unit {
  ref: number;
  /** From a vision model's reading of the page, asked this very question. */
  vlm: boolean;
  /** The page's position among the retrieved pages (0 = best). */
  pageRank: number;
  hitRank: number;
  manualId: string;
  position: number;
  kind: UnitKind;
  /** As quoted (a row with its header). */
  text: string;
  terms: Set<string>;
  /** Terms of the table header or FAQ question the unit sits under. */
  context: Set<string>;
  /** Under an FAQ question: the position of the answer's first unit (its most direct sentence). */
  answerStart?: number;
  /** The unit's terms in order, repeats kept (its BM25 document). */
  termList: string[];
  hasValue: boolean;
  isIntro: boolean;
  /** Terms of the unit's label: a row's first cell, or the words before "label: value". */
  label: Set<string>;
  /** That label as written. */
  labelText: string;
}

const ROW_SEPARATOR = /\s\|\s|\s\|$|^\|\s/;
const isRow = (line: string) => ROW_SEPARATOR.test(line) && line.split('|').filter((c) => c.trim()).length >= 2;
const cellsOf = (line: string) => line.split('|').map((c) => c.trim());
/** A table header: every cell a short label, at most one with a digit (OCR noise). */
function isHeaderRow(line: string): boolean {
  const cells = cellsOf(line).filter(Boolean);
  const withDigits = cells.filter((c) => /\d/.test(c)).length;
  return cells.length >= 2 && withDigits <= (cells.length >= 3 ? 1 : 0) && cells.every((c) => c.split(/\s+/).length <= 4);
}
const ITEM = /^(\(?\d{1,2}[.)]|[•●▪◦·*–-])\s*\S/;
/** A value a technician asks for: a number, a code with digits, a file type (".NC"). */
const VALUE = /\d|(?:^|[\s;,(])\.[A-Za-z]{1,6}\b/;
/** A numbered step ("3." / "3)") or the intro of a list of them. */
export const isStep = (u: Unit) => u.isIntro || (u.kind === 'item' && /^\(?\d/.test(u.text));

/**
 * A row without a header that fits it, for reading: "Burst current: 80 A" (a label and its value),
 * or the cells in order, "E23 · Command buffer full · Retry". The pipes of the passage text are the
 * layout's cell marks, not the manual's words.
 */
function plainRow(row: string): string {
  const cells = cellsOf(row).filter(Boolean);
  if (cells.length === 2 && /\p{L}{3,}/u.test(cells[0]) && !/^\d/.test(cells[0])) return `${cells[0]}: ${cells[1]}`;
  return cells.join(' · ');
}

/** "Code: E05; Meaning: Overpressure …" when the header fits the row, else the row in reading form (plainRow). */
function renderRow(row: string, header: string | undefined): string {
  if (!header) return plainRow(row);
  const h = cellsOf(header);
  const c = cellsOf(row);
  if (h.length !== c.length) return plainRow(row);
  return c
    .map((cell, i) => (h[i] && cell ? `${h[i]}: ${cell}` : cell))
    .filter(Boolean)
    .join('; ');
}

/**
 * A table row wrapped onto the next line: the continuation's cells continue the row's last cells
 * ("E03 | Pressure signal below 3.6 mA (wire | Check …" + "break) | current at J3 …").
 */
function mergeRow(row: string, continuation: string): string {
  const cells = cellsOf(row);
  const more = isRow(continuation) ? cellsOf(continuation) : [continuation];
  const offset = Math.max(0, cells.length - more.length);
  more.forEach((c, i) => {
    const at = Math.min(cells.length - 1, offset + i);
    if (c) cells[at] = cells[at] ? `${cells[at]} ${c}` : c;
  });
  return cells.join(' | ');
}

// A label is short and in mixed case ("Service menu PIN"): a line in capitals ("HEATER") is more
// often a signal name in a drawing, whose neighbour line is not its value.
const LABEL = (l: string) => l.split(' ').length <= 4 && /\p{L}{3,}/u.test(l) && /\p{Ll}/u.test(l) && !/[.!?:;,]$/.test(l) && !isRow(l);
const LABEL_VALUE = (l: string) => l.split(' ').length <= 6 && /\d/.test(l) && !/[.!?]$/.test(l) && !isRow(l);

/**
 * Lines → logical lines: wrapped prose and wrapped table cells joined back. In OCR text of a
 * label or a rating plate, a short label line and the value line under it become one row
 * ("Service menu PIN" + "4071" → "Service menu PIN | 4071").
 */
function logicalLines(text: string, ocr = false): string[] {
  const raw = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (ocr && i + 1 < raw.length && LABEL(raw[i]) && LABEL_VALUE(raw[i + 1]) && !/^\d/.test(raw[i])) {
      lines.push(`${raw[i]} | ${raw[i + 1]}`);
      i++;
    } else {
      lines.push(raw[i]);
    }
  }
  const out: string[] = [];
  for (const line of lines) {
    const prev = out.at(-1);
    const continues = prev !== undefined && /^[\p{Ll}(]/u.test(line) && (isRow(prev) || !/[.!?:;]$/.test(prev)) && !ITEM.test(line);
    if (continues) out[out.length - 1] = isRow(prev) ? mergeRow(prev, line) : `${prev} ${line}`;
    else out.push(line);
  }
  return out;
}

/** A row's first cell, or the words before the colon of a short "label: value" line ('' for none). */
function labelOf(kind: UnitKind, raw: string): string {
  if (kind === 'row') return cellsOf(raw).find(Boolean) ?? '';
  const colon = raw.indexOf(': ');
  return colon > 0 && raw.slice(0, colon).split(/\s+/).length <= 6 ? raw.slice(0, colon) : '';
}

export function passageUnits(hit: RefHit, hitRank: number, pageRank: number): Unit[] {
  const units: Unit[] = [];
  let header: string | undefined;
  let context = new Set<string>();
  let answerStart: number | undefined;
  const add = (kind: UnitKind, text: string, raw = text) => {
    const list = matchTerms(raw);
    units.push({
      ref: hit.ref,
      vlm: hit.kind === 'page' && hit.textSource === 'vlm',
      hitRank,
      pageRank,
      manualId: hit.manualId,
      position: units.length,
      kind,
      text,
      terms: new Set(list),
      context: kind === 'row' && header ? new Set(matchTerms(header)) : context,
      ...(answerStart !== undefined && kind !== 'question' ? { answerStart } : {}),
      termList: list,
      hasValue: VALUE.test(raw),
      isIntro: /:\s*$/.test(text),
      label: new Set(matchTerms(labelOf(kind, raw))),
      labelText: labelOf(kind, raw),
    });
  };
  const lines = logicalLines(hit.text ?? '', hit.kind === 'chunk' && hit.ocr);
  lines.forEach((line, i) => {
    if (isRow(line)) {
      // Only the first row of a table (followed by more rows) can be its header; a label row
      // right under it continues it ("Bit Addr | Domain").
      const first = !(i > 0 && isRow(lines[i - 1])) && i + 1 < lines.length && isRow(lines[i + 1]);
      const continuesHeader = i > 0 && lines[i - 1] === header && !/\d/.test(line);
      if ((first && isHeaderRow(line)) || continuesHeader) {
        if (first) header = line;
        add('header', line);
      } else {
        add('row', renderRow(line, header), line);
      }
      return;
    }
    // A new table caption ends the table; a wrapped cell that starts a line ("Check power supply
    // G1.") does not, so the rows after it keep their header.
    if (/^table\s+\d/i.test(line)) header = undefined;
    // An FAQ question is the context of the answer below it, not an answer.
    if (/\?\s*$/.test(line)) {
      context = new Set(matchTerms(line));
      for (const s of splitSentences(line)) add('question', s);
      answerStart = units.length;
      return;
    }
    // A list item stays whole: its sentences belong to one step.
    if (ITEM.test(line)) add('item', line);
    else for (const s of splitSentences(line)) add(ITEM.test(s) ? 'item' : 'sentence', s);
  });
  return units;
}

/** At least four words, two of them real words, and not a line in capitals (a title). */
export function isSentenceLike(text: string): boolean {
  const ws = words(text);
  if (ws.length < 4 || ws.filter((w) => /^\p{L}{3,}$/u.test(w)).length < 2) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return !(letters.length > 0 && letters === letters.toUpperCase() && ws.length < 8);
}

/** Neither a table header nor an FAQ question: a unit that can be quoted. */
export const quotable = (u: Unit | undefined): u is Unit => !!u && u.kind !== 'header' && u.kind !== 'question';
