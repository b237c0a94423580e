/**
 * Where an answer's quoted values sit on the page, so the citation preview can box "24 V DC"
 * itself rather than its whole line. Values are the value lock's (values.ts); here they are found
 * in a cited passage's lines and placed inside the line's box in proportion to their characters.
 * That estimate is refined to the glyphs' own positions from the PDF when the page is opened
 * (lib/ingest/word-boxes.ts); scanned pages keep it.
 */
import type { BBox } from '@/lib/providers/types';
import { matchForm, valuesIn } from './values';

/** A box around a quoted value; `value` is the text boxed, as the page writes it. */
export interface ValueBox extends BBox {
  value: string;
}

export const isValueBox = (b: BBox): b is ValueBox => typeof (b as Partial<ValueBox>).value === 'string';

/** At most this many value boxes per citation: a quoted table row can hold a dozen numbers. */
export const MAX_VALUE_BOXES = 6;

/**
 * `text` in the value lock's matching form (no white space, lower case, one minus sign), with the
 * index in `text` of every character of that form, so a match maps back to the written text.
 */
function matchFormWithIndex(text: string): { form: string; at: number[] } {
  let form = '';
  const at: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = matchForm(ch);
    form += f;
    for (let k = 0; k < f.length; k++) at.push(i);
    i += ch.length;
  }
  return { form, at };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Every place `value` occurs in `text` as whole words (matching form: "3.3V" meets "3.3 V", "DC"
 * does not meet "ADC"), as [start, end) indices into `text`.
 */
export function findValue(text: string, value: string): Array<[number, number]> {
  const needle = matchForm(value);
  if (!needle) return [];
  const { form, at } = matchFormWithIndex(text);
  const out: Array<[number, number]> = [];
  for (let k = form.indexOf(needle); k >= 0; k = form.indexOf(needle, k + 1)) {
    const start = at[k];
    const last = at[k + needle.length - 1];
    const end = last + String.fromCodePoint(text.codePointAt(last)!).length;
    if (WORD_CHAR.test(text[start - 1] ?? '') || WORD_CHAR.test(text[end] ?? '')) continue;
    out.push([start, end]);
  }
  return out;
}

/**
 * Boxes for the values the quotes state, found in the passage's lines (`lines[i]` drawn in
 * `boxes[i]`). Only lines in `prefer` (the quoted ones) are searched, or every line when none
 * was quoted whole (a paraphrase citing the passage). Values next to each other in a line ("24 V" "DC") share one box.
 * Each box carries the index of its line.
 */
export function valueBoxes(lines: string[], boxes: BBox[], quotes: string[], prefer: number[]): Array<ValueBox & { line: number }> {
  const values = [...new Set(quotes.flatMap((q) => valuesIn(q)))];
  const ranges = new Map<number, Array<[number, number]>>();
  // A value the quoted lines lack is not looked for elsewhere: the same number may sit in another row.
  const order = prefer.length ? prefer : [...lines.keys()];
  for (const value of values) {
    for (const i of order) {
      const found = findValue(lines[i], value)[0];
      if (!found) continue;
      ranges.set(i, [...(ranges.get(i) ?? []), found]);
      break;
    }
  }
  const out: Array<ValueBox & { line: number }> = [];
  for (const [i, list] of [...ranges].sort((a, b) => a[0] - b[0])) {
    for (const [start, end] of mergeAdjacent(lines[i], list)) {
      out.push({ ...estimateInLine(lines[i], boxes[i], start, end), value: lines[i].slice(start, end), line: i });
    }
  }
  return out.slice(0, MAX_VALUE_BOXES);
}

/** Sorted, with ranges apart by white space only (or overlapping) joined into one. */
function mergeAdjacent(text: string, ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const prev = out.at(-1);
    if (prev && (r[0] <= prev[1] || /^\s*$/.test(text.slice(prev[1], r[0])))) prev[1] = Math.max(prev[1], r[1]);
    else out.push([...r]);
  }
  return out;
}

/** Characters [start, end) of a line drawn in `box`, placed by their share of the line's characters. */
function estimateInLine(text: string, box: BBox, start: number, end: number): BBox {
  const len = Math.max(1, text.length);
  return { x: box.x + (box.w * start) / len, y: box.y, w: (box.w * (end - start)) / len, h: box.h };
}
