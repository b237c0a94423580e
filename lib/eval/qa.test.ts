import { describe, expect, it } from 'vitest';
import { parseQa, parseReferenceAnswers, referenceOf } from './qa';

describe('reference answers', () => {
  const qa = parseQa(
    [
      '{"id": "a1", "manual": "acme-hx200.pdf", "question": "Fuse?", "answer_keywords": ["2 A"], "pages": [4], "kind": "fact", "reference_answer": "A 2 A slow-blow fuse."}',
      '{"id": "a2", "manual": "acme-hx200.pdf", "question": "Supply?", "answer_keywords": ["24 V"], "pages": [5], "kind": "fact"}',
      '{"id": "a3", "manual": "acme-hx200.pdf", "question": "Weight?", "answer_keywords": ["3 kg"], "pages": [6], "kind": "fact"}',
    ].join('\n'),
  );
  const refs = parseReferenceAnswers('{"id": "a1", "reference_answer": "from the file"}\n\n{"id": "a2", "reference_answer": "24 V DC supply."}\n');

  it('takes the question’s own field first, else the references file’s line for its id', () => {
    expect(referenceOf(qa[0], refs)).toBe('A 2 A slow-blow fuse.');
    expect(referenceOf(qa[1], refs)).toBe('24 V DC supply.');
    expect(referenceOf(qa[2], refs)).toBeUndefined();
  });

  it('rejects a line without a reference, an empty one, or an id given twice', () => {
    expect(() => parseReferenceAnswers('{"id": "a1"}', 'r.jsonl')).toThrow(/r\.jsonl:1: reference_answer/);
    expect(() => parseReferenceAnswers('{"id": "a1", "reference_answer": ""}')).toThrow(/reference_answer/);
    expect(() => parseReferenceAnswers('{"id": "a1", "reference_answer": "x"}\n{"id": "a1", "reference_answer": "y"}', 'r')).toThrow('r:2: duplicate id a1');
  });
});
