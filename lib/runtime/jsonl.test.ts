import { describe, expect, it } from 'vitest';
import { jsonLines } from './jsonl';

describe('jsonLines', () => {
  it('parses each non-blank line and says where it stands', () => {
    expect([...jsonLines('{"a":1}\n\n  \n[2]\n', 'f.jsonl')]).toEqual([
      { value: { a: 1 }, where: 'f.jsonl:1' },
      { value: [2], where: 'f.jsonl:4' },
    ]);
  });

  it('names the line that is not JSON, with the hint', () => {
    expect(() => [...jsonLines('{}\n{oops', 'f.jsonl', ' (a hint)')]).toThrow('f.jsonl:2: not valid JSON (a hint)');
  });

  it('parses a line only when the caller reads it, so the caller fails first on an earlier line', () => {
    const lines = jsonLines('{"ok":false}\nnot json', 'f');
    expect(lines.next().value).toEqual({ value: { ok: false }, where: 'f:1' });
    expect(() => lines.next()).toThrow('f:2: not valid JSON');
  });
});
