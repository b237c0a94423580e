/**
 * Word-level F1 between two texts (bags of lower-cased words, punctuation dropped): how closely
 * two OCR readings of the same page agree, or how many of a figure's labels an OCR pass found.
 */
function normalizedWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}+\-]/gu, ''))
    .filter(Boolean);
}

export function wordF1(reference: string, candidate: string): number {
  const ref = normalizedWords(reference);
  const cand = normalizedWords(candidate);
  if (ref.length === 0 && cand.length === 0) return 1;
  if (ref.length === 0 || cand.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of ref) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hits = 0;
  for (const w of cand) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      hits++;
      counts.set(w, c - 1);
    }
  }
  const precision = hits / cand.length;
  const recall = hits / ref.length;
  return hits ? (2 * precision * recall) / (precision + recall) : 0;
}
