/**
 * Sentences and citation markers: how answers and passages are cut into sentences, and which [n]
 * sources a sentence cites. Shared by the answer writers, the answer check and the value lock.
 */

// Abbreviations whose period does not end a sentence.
const ABBREVIATIONS = /\b(e\.g|i\.e|etc|fig|figs|no|nos|approx|vs|vol|rev|ref|ch|sec|p|pp|min|max|typ|incl|approx|dia|pt)\.(?=\s)/gi;
const PLACEHOLDER = '\u0001';

/** Splits prose into sentences; list items and lines become sentences of their own. */
export function splitSentences(text: string): string[] {
  const protectedText = text
    .replace(ABBREVIATIONS, (m) => m.slice(0, -1) + PLACEHOLDER)
    // "1. Switch it off" is a list item, not a sentence "1." followed by another.
    .replace(/(^|\n)(\s*\d{1,2})\.(?=\s)/g, `$1$2${PLACEHOLDER}`);
  const pieces = protectedText
    // A full stop after another or after a space is a range or an ellipsis ("0x00 .. 0xFF"), not an end.
    .split(/\n+|(?<=[^.\s][.!?])\s+(?=[\p{Lu}\p{N}"'(\[•\-])/u)
    .map((s) => s.replaceAll(PLACEHOLDER, '.').replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
  // A citation marker that opens a piece ("A. [1] B.") belongs to the sentence before it.
  const out: string[] = [];
  for (const piece of pieces) {
    const lead = piece.match(/^((?:\[\d+\]\s*)+)(.*)$/);
    if (lead && out.length > 0) {
      out[out.length - 1] = `${out[out.length - 1]} ${lead[1].trim()}`;
      if (lead[2].trim()) out.push(lead[2].trim());
    } else {
      out.push(piece);
    }
  }
  return out;
}

/** The [n] citation numbers in a piece of text, in order, without duplicates. */
export function citedRefs(text: string): number[] {
  const refs: number[] = [];
  for (const m of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of m[1].split(',')) {
      const ref = Number(n.trim());
      if (!refs.includes(ref)) refs.push(ref);
    }
  }
  return refs;
}

export function stripCitations(text: string): string {
  return text.replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, '');
}
