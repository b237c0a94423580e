/** Small string helpers the answer writers and the agent share. */

/** At most `maxChars` characters, cut at a word boundary when one is near, with an ellipsis. */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** "a", "a and b", "a, b and c": items joined as a sentence lists them. */
export function joinWithAnd(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Numbers in text ("3.3", "400", "0x1f"); an answer number absent from its source is a red flag. */
export function numbersIn(text: string): string[] {
  // "2.50" and "2.5" are the same value; hex stays as written.
  return (text.toLowerCase().match(/\b0x[0-9a-f]+\b|\d+(?:\.\d+)?/g) ?? []).map((n) =>
    n.startsWith('0x') || !n.includes('.') ? n : n.replace(/0+$/, '').replace(/\.$/, ''),
  );
}
