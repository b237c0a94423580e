/** One line of a JSON Lines text, parsed, and where it stands (`source:line`) for error messages. */
export interface JsonLine {
  value: unknown;
  where: string;
}

/**
 * The lines of a JSON Lines text, parsed one at a time as the caller reads them (so the caller's
 * own check of line 3 fails before line 5 is parsed). Blank lines are skipped; a line that is not
 * JSON throws `source:line: not valid JSON`, followed by `hint`.
 */
export function* jsonLines(text: string, source: string, hint = ''): Generator<JsonLine> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const where = `${source}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch {
      throw new Error(`${where}: not valid JSON${hint}`);
    }
    yield { value, where };
  }
}
