/**
 * Citation numbers and source labels as every reader sees them (the chat, /api/v1/ask, MCP, the
 * stored answer). The agent numbers every hit of a turn in the order its searches found them, so
 * its answer may cite [7] then [3]; the loop (lib/agent/tree.ts) renumbers the streamed text and
 * the final answer here, so the text cites [1]..[n] by first use and the sources come in that order. Passages of
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
  const parts = (heading ?? '')
    .split('>')
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
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
  const numbering = new Numbering<S>();
  for (const ref of markerRefs(text)) {
    const s = byRef.get(ref);
    if (s) numbering.number(s);
  }
  for (const s of sources) numbering.number(s);
  return { text: renumberText(text, numbering.numbers), sources: numbering.sources(), numbers: numbering.numbers };
}

/** The refs of `text`'s markers, in order. */
function markerRefs(text: string): number[] {
  return [...text.matchAll(new RegExp(CITATION.source, 'g'))].flatMap((m) => m[1].split(',').map((r) => Number(r.trim())));
}

/** Numbers 1..n in the order sources are first met; sources of one section of one page share one. */
class Numbering<S extends Citable> {
  readonly numbers = new Map<number, number>();
  private readonly byKey = new Map<string, S>();

  number(s: S): number {
    const done = this.numbers.get(s.ref);
    if (done !== undefined) return done;
    const key = sourceKey(s);
    const known = this.byKey.get(key);
    if (known) {
      if (known !== s && s.bboxes?.length) this.byKey.set(key, { ...known, bboxes: [...(known.bboxes ?? []), ...s.bboxes] });
      this.numbers.set(s.ref, known.ref);
      return known.ref;
    }
    const n = this.byKey.size + 1;
    this.byKey.set(key, { ...s, ref: n });
    this.numbers.set(s.ref, n);
    return n;
  }

  sources(): S[] {
    return [...this.byKey.values()];
  }
}

/** A marker that may still be completed by the next delta ("[", "[1", "[1, "), with the space before it. */
const OPEN_TAIL = /\s*(?:\[[\d,\s]{0,12})?$/;

/**
 * Numbers an answer's citations while it streams, as numberCitations numbers the finished text
 * (same first-use order, same shared numbers), so the reader never sees the agent's own [7]. A
 * marker is shown once complete: an unfinished one at a delta's end waits for the next delta.
 */
export class StreamedCitations {
  private readonly numbering = new Numbering<Citable>();
  private held = '';

  constructor(private readonly sourceOf: (ref: number) => Citable | undefined) {}

  /** The delta as the reader sees it. */
  push(delta: string): string {
    const text = this.held + delta;
    const cut = text.length - OPEN_TAIL.exec(text)![0].length;
    this.held = text.slice(cut);
    return this.renumber(text.slice(0, cut));
  }

  /** What is still held back, once the stream ends. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return this.renumber(rest);
  }

  private renumber(text: string): string {
    for (const ref of markerRefs(text)) {
      const s = this.sourceOf(ref);
      if (s) this.numbering.number(s);
    }
    return renumberText(text, this.numbering.numbers);
  }
}

/** `text` with each [n] in `numbers` (a marker left with no known ref is dropped). */
export function renumberText(text: string, numbers: ReadonlyMap<number, number>): string {
  return text.replace(new RegExp(`\\s*${CITATION.source}`, 'g'), (marker: string, refs: string) => {
    const shown = [...new Set(refs.split(',').flatMap((r) => numbers.get(Number(r.trim())) ?? []))];
    return shown.length ? `${marker.match(/^\s*/)![0]}[${shown.join(', ')}]` : '';
  });
}
