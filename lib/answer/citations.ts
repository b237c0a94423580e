/**
 * Citation numbers and source labels as every reader sees them (the chat, /api/v1/ask, MCP, the
 * stored answer). The agent numbers every hit of a turn in the order its searches found them, so
 * its answer may cite [7] then [3]; the loop (lib/agent/tree.ts) renumbers the final answer here,
 * once, so the text cites [1]..[n] by first use and the sources come in that order. Passages of
 * one section of one page are one source: they share a number (no chip shown twice).
 */

/** "[3]" or "[1, 2]" in an answer. */
export const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/**
 * The heading a source is shown under: the innermost part of its heading path ("A > B > C") that
 * reads like a section title. Figure labels that the layout took for headings ("B+ B- B17 B16",
 * "LED1 LED2 ON") are mostly short tokens or codes: a part counts as a title when at least half of
 * its tokens are words of three or more letters. None when no part does (the reader sees "p. N").
 */
export function sourceLabel(heading: string | undefined): string | undefined {
  const parts = (heading ?? '').split('>').map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  for (const part of parts.reverse()) {
    const tokens = part.split(' ');
    const words = tokens.filter((t) => /^\p{L}{3,}$/u.test(t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')));
    if (words.length * 2 >= tokens.length && part.length <= 120) return part;
  }
  return undefined;
}

interface Citable {
  ref: number;
  manualId: string;
  page: number;
  heading?: string;
  bboxes?: unknown[];
}

const sourceKey = (s: Citable) => `${s.manualId}\u0000${s.page}\u0000${sourceLabel(s.heading) ?? ''}`;

export interface Numbered<S> {
  /** The text citing [1]..[n] by first use; markers of refs with no source are dropped. */
  text: string;
  /** One source per number, in number order, `ref` = its number. */
  sources: S[];
  /** Agent reference → number. */
  numbers: Map<number, number>;
}

/**
 * Numbers `text`'s citations 1..n by first use; sources of the same manual, page and section
 * share a number (their highlight boxes merged). Uncited sources follow, in their order. Running
 * it again on its own output changes nothing. Without any source the text is left as it is.
 */
export function numberCitations<S extends Citable>(text: string, sources: readonly S[]): Numbered<S> {
  if (!sources.length) return { text, sources: [], numbers: new Map() };
  const byRef = new Map(sources.map((s) => [s.ref, s]));
  const byKey = new Map<string, S>();
  const numbers = new Map<number, number>();
  const add = (s: S) => {
    const key = sourceKey(s);
    const known = byKey.get(key);
    if (known) {
      if (known !== s && s.bboxes?.length) byKey.set(key, { ...known, bboxes: [...(known.bboxes ?? []), ...s.bboxes] });
      numbers.set(s.ref, known.ref);
      return;
    }
    const n = byKey.size + 1;
    byKey.set(key, { ...s, ref: n });
    numbers.set(s.ref, n);
  };
  for (const m of text.matchAll(new RegExp(CITATION.source, 'g'))) {
    for (const r of m[1].split(',')) {
      const s = byRef.get(Number(r.trim()));
      if (s && !numbers.has(s.ref)) add(s);
    }
  }
  for (const s of sources) if (!numbers.has(s.ref)) add(s);
  return { text: renumberText(text, numbers), sources: [...byKey.values()], numbers };
}

/** `text` with each [n] in `numbers` (a marker left with no known ref is dropped). */
export function renumberText(text: string, numbers: ReadonlyMap<number, number>): string {
  return text.replace(new RegExp(`\\s*${CITATION.source}`, 'g'), (marker: string, refs: string) => {
    const shown = [...new Set(refs.split(',').flatMap((r) => numbers.get(Number(r.trim())) ?? []))];
    return shown.length ? `${marker.match(/^\s*/)![0]}[${shown.join(', ')}]` : '';
  });
}
