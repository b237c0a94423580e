/**
 * Citation numbers as the reader sees them. The agent numbers every hit of a turn in the order
 * its searches found them, so an answer may cite [7] then [3], and [3] means another source in
 * the next turn. The chat shows each answer's sources as 1..n in the order the answer first
 * uses them; the stored answer and events keep the agent's numbers (this is display only).
 */
import { CITATION } from './markdown';

/** Agent reference → displayed number: cited refs by first use, then uncited sources in order. */
export function citationNumbers(answer: string, sources: Array<{ ref: number }>): Map<number, number> {
  const out = new Map<number, number>();
  const add = (ref: number) => {
    if (!out.has(ref)) out.set(ref, out.size + 1);
  };
  for (const m of answer.matchAll(new RegExp(CITATION.source, 'g'))) {
    for (const n of m[1].split(',')) add(Number(n.trim()));
  }
  for (const s of sources) add(s.ref);
  return out;
}

/** The answer's text with its [n] markers in displayed numbers (for copying). */
export function renumberAnswer(answer: string, numbers: Map<number, number>): string {
  return answer.replace(new RegExp(CITATION.source, 'g'), (_m, refs: string) => {
    const shown = refs.split(',').map((n) => numbers.get(Number(n.trim())) ?? Number(n.trim()));
    return `[${shown.join(', ')}]`;
  });
}

/** The sources in displayed order (first cited first). */
export function sourcesInOrder<S extends { ref: number }>(sources: S[], numbers: Map<number, number>): S[] {
  const rank = (s: S) => numbers.get(s.ref) ?? Number.MAX_SAFE_INTEGER;
  return [...sources].sort((a, b) => rank(a) - rank(b));
}
